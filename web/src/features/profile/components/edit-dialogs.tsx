import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { m } from '@/paraglide/messages';
import type { User } from '@/types/api-schema';

import {
  LANGUAGE_NAMES,
  LANGUAGES,
  languageInputSchema,
  nameInputSchema,
  NAME_INPUT_MAX_LENGTH,
  phoneInputSchema,
} from '../api/update-profile';
import { useProfileForm } from '../hooks/use-profile-form';
import { FormDialog } from '@/components/ui/form-dialog';

/** The profile's editable parts, each with its own modal. */
export type ProfileEdit = 'name' | 'language' | 'phoneNumber';

type EditDialogProps = {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called with the success text once the change is saved and the user refreshed. */
  onSaved: (message: string) => void;
};

function NameDialog({ user, open, onOpenChange, onSaved }: EditDialogProps) {
  const current = { lastName: user.lastName, middleName: user.middleName, firstName: user.firstName };
  const { form, dialog } = useProfileForm(nameInputSchema, current, () => onSaved(m['profile.edit.name.success']()), {
    together: ['lastName', 'middleName', 'firstName'],
  });
  const { errors } = form.formState;
  const parts = [
    { name: 'lastName', required: true, autoComplete: 'family-name' },
    { name: 'middleName', required: false, autoComplete: 'additional-name' },
    { name: 'firstName', required: true, autoComplete: 'given-name' },
  ] as const;
  const labels = {
    lastName: m['profile.edit.name.lastName'],
    middleName: m['profile.edit.name.middleName'],
    firstName: m['profile.edit.name.firstName'],
  };

  return (
    <FormDialog open={open} onOpenChange={onOpenChange} title={m['profile.edit.name.title']()} {...dialog}>
      {parts.map(({ name, required, autoComplete }, index) => (
        <Field.Root key={name} required={required} invalid={!!errors[name]}>
          <Field.Label>
            {labels[name]()}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input
            {...form.register(name)}
            maxLength={NAME_INPUT_MAX_LENGTH}
            autoComplete={autoComplete}
            autoFocus={index === 0}
          />
          <Field.ErrorText>{errors[name]?.message}</Field.ErrorText>
        </Field.Root>
      ))}
    </FormDialog>
  );
}

function LanguageDialog({ user, open, onOpenChange, onSaved }: EditDialogProps) {
  const { form, dialog } = useProfileForm(
    languageInputSchema,
    { language: user.language },
    () => onSaved(m['profile.edit.language.success']()),
    // A language the portal no longer offers starts as the first one it does, which can be saved.
    { initial: { language: (LANGUAGES as readonly string[]).includes(user.language) ? user.language : LANGUAGES[0] } },
  );
  const { errors } = form.formState;

  return (
    <FormDialog open={open} onOpenChange={onOpenChange} title={m['profile.edit.language.title']()} {...dialog}>
      <Field.Root required invalid={!!errors.language}>
        <Field.Label>
          {m['profile.fields.language']()}
          <Field.RequiredIndicator />
        </Field.Label>
        <NativeSelect.Root>
          <NativeSelect.Field {...form.register('language')}>
            {LANGUAGES.map((code) => (
              <option key={code} value={code}>
                {LANGUAGE_NAMES[code]()}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Field.ErrorText>{errors.language?.message}</Field.ErrorText>
      </Field.Root>
    </FormDialog>
  );
}

function PhoneDialog({ user, open, onOpenChange, onSaved }: EditDialogProps) {
  const { form, dialog } = useProfileForm(phoneInputSchema, { phoneNumber: user.phoneNumber }, () =>
    onSaved(m['profile.edit.phoneNumber.success']()),
  );
  const { errors } = form.formState;

  return (
    <FormDialog open={open} onOpenChange={onOpenChange} title={m['profile.edit.phoneNumber.title']()} {...dialog}>
      <Field.Root required invalid={!!errors.phoneNumber}>
        <Field.Label>
          {m['profile.fields.phoneNumber']()}
          <Field.RequiredIndicator />
        </Field.Label>
        <Input {...form.register('phoneNumber')} type="tel" inputMode="tel" autoComplete="tel" autoFocus />
        <Field.ErrorText>{errors.phoneNumber?.message}</Field.ErrorText>
      </Field.Root>
    </FormDialog>
  );
}

/** The modal that edits one part of the profile. */
export function EditDialog({ edit, ...props }: EditDialogProps & { edit: ProfileEdit }) {
  if (edit === 'name') return <NameDialog {...props} />;
  if (edit === 'language') return <LanguageDialog {...props} />;
  return <PhoneDialog {...props} />;
}
