import { zodResolver } from '@hookform/resolvers/zod';
import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { FormDialog } from '@/components/ui/form-dialog';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { toaster } from '@/components/ui/toaster-store';
import { placeServerErrors } from '@/lib/server-errors';
import { m } from '@/paraglide/messages';

import {
  CREATE_MEMBER_FIELDS,
  createMemberSchema,
  STAFF_EMAIL_MAX_LENGTH,
  useCreateMember,
  type CreateMemberInput,
} from '../api/create-member';
import { staffFailureText } from '../utils/failure';
import { roleLabel, STAFF_ROLES } from '../utils/roles';

type Create = ReturnType<typeof useCreateMember>;

/**
 * 'Thêm nhân viên': username, role and email; the server's refusals beside them. Once created,
 * a notice says where the enrolment link went, and the form closes.
 */
function CreateMemberDialog({ create, onClose }: { create: Create; onClose: () => void }) {
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<CreateMemberInput>({
    mode: 'onTouched',
    resolver: zodResolver(createMemberSchema),
    defaultValues: { username: '', role: 'viewer', email: '' },
  });
  const username = useWatch({ control, name: 'username' });

  const onSubmit = handleSubmit((input) => {
    create.mutate(input, {
      onSuccess: ({ staff }) => {
        toaster.success({
          title: m['staff.members.createdDone']({ username: staff.username, email: staff.email ?? input.email }),
          closable: true,
        });
        onClose();
      },
      onError: (error) => placeServerErrors(error, CREATE_MEMBER_FIELDS, setError),
    });
  });

  const failure = staffFailureText(create.error, CREATE_MEMBER_FIELDS);

  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={m['staff.members.create.title']()}
      onSubmit={(event) => void onSubmit(event)}
      canSave={username.trim() !== ''}
      pending={create.isPending}
      failure={failure ? { title: m['staff.members.create.failed'](), text: failure } : null}
      saveLabel={m['staff.members.create.submit']()}
    >
      <Field.Root required invalid={!!errors.username}>
        <Field.Label>
          {m['staff.members.create.username']()}
          <Field.RequiredIndicator />
        </Field.Label>
        <Input {...register('username')} autoComplete="off" autoCapitalize="none" spellCheck={false} autoFocus />
        {errors.username ? (
          <Field.ErrorText>{errors.username.message}</Field.ErrorText>
        ) : (
          <Field.HelperText>{m['staff.members.create.usernameHelp']()}</Field.HelperText>
        )}
      </Field.Root>
      <Field.Root required invalid={!!errors.role}>
        <Field.Label>
          {m['staff.members.create.role']()}
          <Field.RequiredIndicator />
        </Field.Label>
        <NativeSelect.Root>
          <NativeSelect.Field {...register('role')}>
            {STAFF_ROLES.map((role) => (
              <option key={role} value={role}>
                {roleLabel(role)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Field.ErrorText>{errors.role?.message}</Field.ErrorText>
      </Field.Root>
      <Field.Root required invalid={!!errors.email}>
        <Field.Label>
          {m['staff.members.create.email']()}
          <Field.RequiredIndicator />
        </Field.Label>
        <Input
          {...register('email')}

          type="email"
          inputMode="email"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={STAFF_EMAIL_MAX_LENGTH}
        />
        {errors.email ? (
          <Field.ErrorText>{errors.email.message}</Field.ErrorText>
        ) : (
          <Field.HelperText>{m['staff.members.create.emailHelp']()}</Field.HelperText>
        )}
      </Field.Root>
    </FormDialog>
  );
}

/**
 * 'Thêm nhân viên': the button and its form. The admin never sees the new member's password or
 * app secret: the member sets both through the link mailed to them.
 */
export function CreateMember() {
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
        {m['staff.members.add']()}
      </Button>
      {open && <CreateMemberDialog create={create} onClose={() => setOpen(false)} />}
    </>
  );
}
