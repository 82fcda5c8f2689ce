import { useForm, useWatch } from 'react-hook-form';

import { Field } from '@/components/ui/field';
import { FormDialog } from '@/components/ui/form-dialog';
import { NativeSelect } from '@/components/ui/native-select';
import { Text } from '@/components/ui/text';
import { toaster } from '@/components/ui/toaster-store';
import { placeServerErrors } from '@/lib/server-errors';
import { m } from '@/paraglide/messages';
import type { StaffBody } from '@/types/api-schema';

import { useResetCredentials } from '../api/reset-credentials';
import { useUpdateMember } from '../api/update-member';
import { staffFailureText } from '../utils/failure';
import { roleLabel, STAFF_ROLES } from '../utils/roles';

type MemberDialogProps = {
  member: StaffBody;
  onClose: () => void;
};

const ROLE_FIELDS = ['role'] as const;

/**
 * 'Đổi vai trò': the member's new role, saved with 'Lưu' (only once it differs). The server's
 * refusal of the role shows under it; any other refusal, such as the admin role's, above it.
 * Mount it for one member, while open.
 */
export function RoleDialog({ member, onClose }: MemberDialogProps) {
  const update = useUpdateMember();
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<{ role: string }>({ defaultValues: { role: member.role } });
  const role = useWatch({ control, name: 'role' });

  const onSubmit = handleSubmit((input) => {
    update.mutate(
      { id: member.id, role: input.role, disabled: member.disabled },
      {
        onSuccess: (changed) => {
          toaster.success({
            title: m['staff.members.roleChanged']({ username: changed.username, role: roleLabel(changed.role) }),
            closable: true,
          });
          onClose();
        },
        onError: (error) => placeServerErrors(error, ROLE_FIELDS, setError),
      },
    );
  });
  const failure = staffFailureText(update.error, ROLE_FIELDS);

  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={m['staff.members.roleDialog.title']({ username: member.username })}
      onSubmit={(event) => void onSubmit(event)}
      canSave={role !== member.role}
      pending={update.isPending}
      failure={failure ? { title: m['staff.members.roleDialog.failed'](), text: failure } : null}
    >
      <Field.Root invalid={!!errors.role}>
        <Field.Label>{m['staff.members.roleDialog.role']()}</Field.Label>
        <NativeSelect.Root>
          <NativeSelect.Field {...register('role')}>
            {STAFF_ROLES.map((each) => (
              <option key={each} value={each}>
                {roleLabel(each)}
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

/** 'Khóa tài khoản ...?': what disabling does, and a red 'Khóa tài khoản'. */
export function DisableDialog({ member, onClose }: MemberDialogProps) {
  const update = useUpdateMember();
  const failure = staffFailureText(update.error);

  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={m['staff.members.disableDialog.title']({ username: member.username })}
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate(
          { id: member.id, role: member.role, disabled: true },
          {
            onSuccess: (changed) => {
              toaster.success({
                title: m['staff.members.disabledDone']({ username: changed.username }),
                closable: true,
              });
              onClose();
            },
          },
        );
      }}
      canSave
      pending={update.isPending}
      failure={failure ? { title: m['staff.members.disableDialog.failed'](), text: failure } : null}
      saveLabel={m['staff.members.disableDialog.confirm']()}
      destructive
    >
      <Text>{m['staff.members.disableDialog.text']()}</Text>
    </FormDialog>
  );
}

/**
 * 'Đặt lại thông tin đăng nhập của ...?': what a reset does, and a red 'Đặt lại'. The server's
 * refusal (no email on record, say) shows above the text.
 */
export function ResetCredentialsDialog({ member, onClose }: MemberDialogProps) {
  const reset = useResetCredentials();
  const failure = staffFailureText(reset.error);

  return (
    <FormDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={m['staff.members.resetDialog.title']({ username: member.username })}
      onSubmit={(event) => {
        event.preventDefault();
        reset.mutate(member.id, {
          onSuccess: (changed) => {
            toaster.success({ title: m['staff.members.resetDone']({ email: changed.email ?? '' }), closable: true });
            onClose();
          },
        });
      }}
      canSave
      pending={reset.isPending}
      failure={failure ? { title: m['staff.members.resetDialog.failed'](), text: failure } : null}
      saveLabel={m['staff.members.resetDialog.confirm']()}
      destructive
    >
      <Text>{m['staff.members.resetDialog.text']()}</Text>
    </FormDialog>
  );
}
