import { zodResolver } from '@hookform/resolvers/zod';
import { Send } from 'lucide-react';
import { Controller, useForm } from 'react-hook-form';
import { Stack } from 'styled-system/jsx';

import { FailureAlert } from '@/components/feedback/failure-alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { failureText } from '@/lib/failure-text';
import { placeServerErrors } from '@/lib/server-errors';
import { m } from '@/paraglide/messages';

import { useAnswerTicket } from '../api/answer-ticket';
import { answerInputSchema, type AnswerField, type AnswerInput } from '../api/schemas';

import { AttachmentField } from './attachment-field';
import { MessageBodyInput } from './message-body-input';

const FIELDS: readonly AnswerField[] = ['body', 'attachment'];

const EMPTY: AnswerInput = { body: '', attachment: null };

/**
 * The player's answer on an open or answered ticket: what they write and an image, as a new
 * ticket's. The answer joins the conversation and the ticket waits for support again; a
 * ticket closed meanwhile says so above the button and is read again (its form then goes).
 */
export function AnswerForm({ ticketId }: { ticketId: string }) {
  const answer = useAnswerTicket(ticketId);
  const {
    control,
    register,
    handleSubmit,
    setError,
    trigger,
    reset,
    formState: { errors },
  } = useForm<AnswerInput>({
    resolver: zodResolver(answerInputSchema),
    defaultValues: EMPTY,
  });

  const onSubmit = handleSubmit((input) => {
    answer.mutate(input, {
      onSuccess: () => reset(EMPTY),
      onError: (error) => placeServerErrors(error, FIELDS, setError),
    });
  });

  const failure = answer.error ? failureText(answer.error, FIELDS) : null;
  const bodyError = errors.body?.message;

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      <Stack gap="4">
        <Field.Root required invalid={!!bodyError}>
          <Field.Label>
            {m['support.ticket.answer']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <MessageBodyInput {...register('body')} rows={4} placeholder={m['support.ticket.answerPlaceholder']()} />
          <Field.ErrorText>{bodyError}</Field.ErrorText>
        </Field.Root>

        <Controller
          control={control}
          name="attachment"
          render={({ field }) => (
            <AttachmentField
              ref={field.ref}
              file={field.value}
              onPick={(file) => {
                field.onChange(file);
                void trigger('attachment');
              }}
              error={errors.attachment?.message}
            />
          )}
        />

        {failure && <FailureAlert title={m['support.ticket.answerFailed']()} text={failure} />}

        <Button
          type="submit"
          alignSelf={{ base: 'stretch', sm: 'flex-start' }}
          minW={{ sm: '40' }}
          loading={answer.isPending}
        >
          <Send size={18} aria-hidden />
          {m['support.ticket.send']()}
        </Button>
      </Stack>
    </form>
  );
}
