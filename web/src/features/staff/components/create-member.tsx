import { Button, Field, Input, NativeSelect } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

import { FormDialog } from '@/components/ui/form-dialog';
import { placeServerErrors } from '@/lib/server-errors';

import { CREATE_MEMBER_FIELDS, createMemberSchema, useCreateMember, type CreateMemberInput } from '../api/create-member';
import { staffFailureText } from '../utils/failure';
import { roleLabel, STAFF_ROLES } from '../utils/roles';

import { CreatedMemberDialog } from './created-member-dialog';

type Create = ReturnType<typeof useCreateMember>;

/** 'Thêm nhân viên': username and role; the server's refusals beside them. */
function CreateMemberDialog({ create, onClose }: { create: Create; onClose: () => void }) {
  const { t } = useTranslation();
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<CreateMemberInput>({
    mode: 'onTouched',
    resolver: zodResolver(createMemberSchema),
    defaultValues: { username: '', role: 'viewer' },
  });
  const username = useWatch({ control, name: 'username' });

  const onSubmit = handleSubmit((input) => {
    create.mutate(input, {
      onSuccess: onClose,
      onError: (error) => placeServerErrors(error, CREATE_MEMBER_FIELDS, setError),
    });
  });

  const message = (error: FieldError | undefined) => {
    if (!error?.message) return undefined;
    return error.type === 'server' ? error.message : t(error.message as 'staff.members.create.validation.usernameRequired');
  };
  const failure = staffFailureText(create.error, CREATE_MEMBER_FIELDS);

  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('staff.members.create.title')}
      onSubmit={(event) => void onSubmit(event)}
      canSave={username.trim() !== ''}
      pending={create.isPending}
      failure={failure ? { title: t('staff.members.create.failed'), text: failure } : null}
      saveLabel={t('staff.members.create.submit')}
    >
      <Field.Root required invalid={!!errors.username}>
        <Field.Label>
          {t('staff.members.create.username')}
          <Field.RequiredIndicator />
        </Field.Label>
        <Input {...register('username')} autoComplete="off" autoCapitalize="none" spellCheck={false} autoFocus />
        {errors.username ? (
          <Field.ErrorText>{message(errors.username)}</Field.ErrorText>
        ) : (
          <Field.HelperText>{t('staff.members.create.usernameHelp')}</Field.HelperText>
        )}
      </Field.Root>
      <Field.Root required invalid={!!errors.role}>
        <Field.Label>
          {t('staff.members.create.role')}
          <Field.RequiredIndicator />
        </Field.Label>
        <NativeSelect.Root>
          <NativeSelect.Field {...register('role')}>
            {STAFF_ROLES.map((role) => (
              <option key={role} value={role}>
                {roleLabel(t, role)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Field.ErrorText>{errors.role?.message}</Field.ErrorText>
      </Field.Root>
    </FormDialog>
  );
}

/**
 * 'Thêm nhân viên' and what follows it: the form, then, once the member is created, their
 * password and authenticator secret, shown once (CreatedMemberDialog) and dropped from memory
 * when closed.
 */
export function CreateMember() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const create = useCreateMember();

  return (
    <>
      <Button
        size="sm"
        onClick={() => {
          create.reset();
          setOpen(true);
        }}
      >
        <UserPlus aria-hidden />
        {t('staff.members.add')}
      </Button>
      {open && <CreateMemberDialog create={create} onClose={() => setOpen(false)} />}
      {create.data && <CreatedMemberDialog created={create.data} onDone={() => create.reset()} />}
    </>
  );
}
