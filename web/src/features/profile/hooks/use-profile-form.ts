import { zodResolver } from '@hookform/resolvers/zod';
import type { FormEvent } from 'react';
import { useForm, useWatch, type DefaultValues, type FieldError, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';

import { failureText } from '@/lib/failure-text';
import { placeServerErrors } from '@/lib/server-errors';

import { profileMessageParams, useUpdateProfile, type ProfileChange } from '../api/update-profile';

type Values = Record<string, string>;

/**
 * The form of one profile modal: its fields start at `initial` (the user's `current` values
 * unless told otherwise); it can be saved only when they parse and differ from `current`; saving sends just these fields with
 * PATCH /me/update-profile, and the server's 422 messages are merged into the fields.
 */
export function useProfileForm<TInput extends Values, TOutput extends ProfileChange & Values>(
  schema: z.ZodType<TOutput, TInput>,
  current: TInput,
  onSaved: () => void,
  initial: TInput = current,
) {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  const form = useForm<TInput, unknown, TOutput>({
    mode: 'onTouched',
    resolver: zodResolver(schema),
    defaultValues: initial as DefaultValues<TInput>,
  });
  const fields = Object.keys(current) as Path<TInput>[];
  const values = useWatch({ control: form.control }) as TInput;
  const parsed = schema.safeParse(values);
  const output: Values | undefined = parsed.data;
  const changed = !!output && fields.some((field) => output[field] !== current[field]);

  const onSubmit = form.handleSubmit((change) =>
    update.mutate(change, {
      onSuccess: onSaved,
      onError: (error) => placeServerErrors(error, fields, form.setError),
    }),
  );

  /** A field's error text: the server's words as sent, the form's own from the locale. */
  const message = (error: FieldError | undefined): string | undefined => {
    if (!error?.message) return undefined;
    if (error.type === 'server') return error.message;
    return t(error.message as 'profile.validation.nameTooLong', profileMessageParams);
  };

  const failure = failureText(update.error, fields);

  return {
    form,
    message,
    /** What the modal's FormDialog takes besides its title and open state. */
    dialog: {
      onSubmit: (event: FormEvent<HTMLFormElement>) => void onSubmit(event),
      canSave: changed && !update.isPending,
      pending: update.isPending,
      failure: failure ? { title: t('profile.edit.failed'), text: failure } : null,
    },
  };
}
