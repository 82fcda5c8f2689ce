import { zodResolver } from '@hookform/resolvers/zod';
import type { FormEvent } from 'react';
import { useForm, useWatch, type DefaultValues, type Path } from 'react-hook-form';
import type { z } from 'zod';

import { failureText } from '@/lib/failure-text';
import { placeServerErrors } from '@/lib/server-errors';
import { m } from '@/paraglide/messages';

import { useUpdateProfile, type ProfileChange } from '../api/update-profile';

type Values = Record<string, string>;

type ProfileFormOptions<TInput extends Values> = {
  /** Where the fields start; the user's `current` values unless told otherwise. */
  initial?: TInput;
  /**
   * Fields the server takes only as a whole: when one of them changed, all of them are sent.
   * The name's parts are such (the identity service asks for the given and the family name
   * whenever any part comes, and clears a middle name that does not).
   */
  together?: readonly Path<TInput>[];
};

/**
 * The form of one profile modal: its fields start at `initial`; it can be saved only when they
 * parse and differ from `current`. Saving sends with PATCH /me/update-profile only the fields the
 * form changed: those the player edited (react-hook-form's dirtyFields) or that started away from
 * `current`, and whose parsed value differs from it (with the rest of their `together` group);
 * the server's 422 messages are merged into the fields.
 */
export function useProfileForm<TInput extends Values, TOutput extends ProfileChange & Values>(
  schema: z.ZodType<TOutput, TInput>,
  current: TInput,
  onSaved: () => void,
  { initial = current, together = [] }: ProfileFormOptions<TInput> = {},
) {
  const update = useUpdateProfile();
  const form = useForm<TInput, unknown, TOutput>({
    mode: 'onTouched',
    resolver: zodResolver(schema),
    defaultValues: initial as DefaultValues<TInput>,
  });
  const fields = Object.keys(current) as Path<TInput>[];
  const values = useWatch({ control: form.control }) as TInput;
  // Read while rendering, so react-hook-form keeps dirtyFields up to date.
  const { dirtyFields } = form.formState;
  const parsed = schema.safeParse(values);
  const changedFields = (output: Values) => {
    const changed = fields.filter(
      (field) =>
        (dirtyFields[field as keyof typeof dirtyFields] || initial[field] !== current[field]) &&
        output[field] !== current[field],
    );
    if (!changed.some((field) => together.includes(field))) return changed;
    return fields.filter((field) => changed.includes(field) || together.includes(field));
  };
  const changed = !!parsed.data && changedFields(parsed.data).length > 0;

  const onSubmit = form.handleSubmit((output) => {
    const change = Object.fromEntries(changedFields(output).map((field) => [field, output[field]])) as ProfileChange;
    update.mutate(change, {
      onSuccess: onSaved,
      onError: (error) => placeServerErrors(error, fields, form.setError),
    });
  });

  const failure = failureText(update.error, fields);

  return {
    form,
    /** What the modal's FormDialog takes besides its title and open state. */
    dialog: {
      onSubmit: (event: FormEvent<HTMLFormElement>) => void onSubmit(event),
      canSave: changed && !update.isPending,
      pending: update.isPending,
      failure: failure ? { title: m['profile.edit.failed'](), text: failure } : null,
    },
  };
}
