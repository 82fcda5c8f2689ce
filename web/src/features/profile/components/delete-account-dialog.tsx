import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Box, Stack } from 'styled-system/jsx';

import { Alert } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { List } from '@/components/ui/list';
import { PasswordInput } from '@/components/ui/password-input';
import { Text } from '@/components/ui/text';
import { useThrottleLock } from '@/hooks/use-throttle-lock';
import { toApiError } from '@/lib/api-client';
import { failureText } from '@/lib/failure-text';
import { formatNumber } from '@/lib/format';
import { placeServerErrors } from '@/lib/server-errors';
import { throttleLockOf } from '@/lib/throttle-lock';
import { m } from '@/paraglide/messages';
import type { User } from '@/types/api-schema';

import {
  deleteAccountInputSchema,
  useDeleteAccount,
  type DeleteAccountField,
  type DeleteAccountInput,
} from '../api/delete-account';
import { FormDialog } from '@/components/ui/form-dialog';

const FIELDS: readonly DeleteAccountField[] = ['password'];

type DeleteAccountDialogProps = {
  user: Pick<User, 'username' | 'credit' | 'debtCredit'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/** The KP the account still holds, which is not paid out, and any debt; nothing when neither. */
function BalanceWarning({ credit, debtCredit }: Pick<User, 'credit' | 'debtCredit'>) {
  if (credit <= 0 && debtCredit <= 0) return null;
  const balance = credit > 0 ? m['profile.personalData.delete.balance']({ credit: formatNumber(credit) }) : null;
  const debt = debtCredit > 0 ? m['profile.personalData.delete.debt']({ debt: formatNumber(debtCredit) }) : null;
  return (
    <Alert.Root status="error" borderRadius="lg" data-testid="delete-account-balance">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title fontWeight="semibold" fontVariantNumeric="tabular-nums">
          {balance ?? debt}
        </Alert.Title>
        {balance && debt && <Alert.Description fontVariantNumeric="tabular-nums">{debt}</Alert.Description>}
      </Alert.Content>
    </Alert.Root>
  );
}

/**
 * 'Xóa tài khoản?': what closing the account does (closed at once, every device signed out,
 * personal data erased after 30 days, KP transactions kept without it), the KP balance that is
 * lost, then the password and the red 'Xóa tài khoản'. A wrong password is said under it (after
 * too many, for how many minutes, and the button waits until then). Once closed the browser
 * leaves for the public page that says so. Mount it afresh (a new `key`) for each opening.
 */
export function DeleteAccountDialog({ user, open, onOpenChange }: DeleteAccountDialogProps) {
  const remove = useDeleteAccount();
  const [lock, setLock] = useThrottleLock();
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<DeleteAccountInput>({
    mode: 'onTouched',
    resolver: zodResolver(deleteAccountInputSchema),
    defaultValues: { password: '' },
  });
  const values = useWatch({ control }) as DeleteAccountInput;
  const valid = deleteAccountInputSchema.safeParse(values).success;
  // Closed: the page is being left, so the button stays busy.
  const pending = remove.isPending || remove.isSuccess;

  const onSubmit = handleSubmit((input) => {
    if (lock) return;
    remove.mutate(input, {
      onError: (error) => {
        const newLock = throttleLockOf(error);
        if (newLock) setLock(newLock);
        else placeServerErrors(error, FIELDS, setError);
      },
    });
  });

  const passwordError = lock
    ? m['profile.personalData.delete.tooManyGuesses']({ minutes: lock.minutes })
    : errors.password?.message;
  // A 429 is said under the password while its lock lasts, and not at all once it is lifted.
  const failure = remove.error && toApiError(remove.error).status !== 429 ? failureText(remove.error, FIELDS) : null;

  const consequences = [
    m['profile.personalData.delete.closedAtOnce'](),
    m['profile.personalData.delete.signedOut'](),
    m['profile.personalData.delete.erased'](),
    m['profile.personalData.delete.ledger'](),
  ];

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={m['profile.personalData.delete.title']()}
      onSubmit={(event) => void onSubmit(event)}
      canSave={valid && !lock && !pending}
      pending={pending}
      failure={failure ? { title: m['profile.personalData.delete.failed'](), text: failure } : null}
      saveLabel={m['profile.personalData.delete.submit']()}
      destructive
    >
      <Stack gap="2">
        <Text overflowWrap="anywhere">{m['profile.personalData.delete.intro']({ username: user.username })}</Text>
        <List.Root gap="1.5" ps="5" fontSize="sm">
          {consequences.map((text) => (
            <List.Item key={text}>{text}</List.Item>
          ))}
        </List.Root>
      </Stack>
      <BalanceWarning credit={user.credit} debtCredit={user.debtCredit} />
      <Text fontSize="sm" color="fg.muted">
        {m['profile.personalData.delete.support']()}
      </Text>
      <Box>
        {/* Lets password managers offer the password of the right account. */}
        <input type="text" name="username" value={user.username} autoComplete="username" readOnly hidden />
        <Field.Root required invalid={!!passwordError}>
          <Field.Label>
            {m['profile.personalData.delete.password']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <PasswordInput {...register('password')} autoComplete="current-password" />
          {passwordError ? (
            <Field.ErrorText>{passwordError}</Field.ErrorText>
          ) : (
            <Field.HelperText>{m['profile.personalData.delete.passwordHelp']()}</Field.HelperText>
          )}
        </Field.Root>
      </Box>
    </FormDialog>
  );
}
