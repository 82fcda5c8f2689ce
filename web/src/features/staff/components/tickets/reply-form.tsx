import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCheck, Send } from 'lucide-react';
import type { ComponentProps } from 'react';
import { useForm } from 'react-hook-form';
import { Stack } from 'styled-system/jsx';

import { FailureAlert } from '@/components/feedback/failure-alert';
import { Button } from '@/components/ui/button';
import { Field, useFieldContext } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toaster } from '@/components/ui/toaster-store';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { placeServerErrors } from '@/lib/server-errors';
import { m } from '@/paraglide/messages';

import { replyInputSchema, useReplyTicket, type ReplyInput } from '../../api/reply-ticket';
import { staffFailureText } from '../../utils/failure';

const FIELDS = ['body'] as const;

/** Several lines with Chakra's input styles, wired to its Field.Root's label and state. */
function BodyInput(props: ComponentProps<'textarea'>) {
  const field = useFieldContext();
  return (
    <Input asChild h="auto" minH="24" py="2" lineHeight="tall" resize="vertical">
      <textarea rows={5} {...field?.getTextareaProps()} {...props} />
    </Input>
  );
}
const EMPTY: ReplyInput = { body: '', close: false };

/**
 * Support's reply: the text (required), sent as it is ('Gửi trả lời') or closing the ticket
 * ('Gửi và đóng yêu cầu'), as helpdesks offer it. Two buttons rather than a checkbox: the
 * player's sign-in form is the only other checkbox, and sharing Chakra's with it would split it
 * into a chunk of its own that /login then loads. The reply joins the conversation, the player
 * is mailed, and the form empties for the next one.
 */
export function ReplyForm({ ticketId }: { ticketId: string }) {
  const reply = useReplyTicket(ticketId);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<ReplyInput>({ resolver: zodResolver(replyInputSchema), defaultValues: EMPTY });

  const send = (close: boolean) =>
    handleSubmit((input) =>
      reply.mutate(
        { ...input, close },
        {
          onSuccess: () => {
            toaster.success({
              title: close ? m['staff.tickets.reply.doneClosed']() : m['staff.tickets.reply.done'](),
              closable: true,
            });
            reset(EMPTY);
          },
          onError: (error) => placeServerErrors(error, FIELDS, setError),
        },
      ),
    );
  const failure = staffFailureText(reply.error, FIELDS);
  const bodyError = errors.body?.message;

  return (
    <form
      onSubmit={(event) => void send(false)(event)}
      onKeyDown={enterToNextField}
      noValidate
      aria-label={m['staff.tickets.reply.label']()}
    >
      <Stack gap="4">
        <Field.Root required invalid={!!bodyError}>
          <Field.Label>
            {m['staff.tickets.reply.body']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <BodyInput {...register('body')} placeholder={m['staff.tickets.reply.placeholder']()} />
          {bodyError ? (
            <Field.ErrorText>{bodyError}</Field.ErrorText>
          ) : (
            <Field.HelperText>{m['staff.tickets.reply.help']()}</Field.HelperText>
          )}
        </Field.Root>
        {failure && <FailureAlert title={m['staff.tickets.reply.failed']()} text={failure} />}
        <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
          <Button type="submit" loading={reply.isPending}>
            <Send size={16} aria-hidden />
            {m['staff.tickets.reply.submit']()}
          </Button>
          <Button type="button" variant="outline" loading={reply.isPending} onClick={(event) => void send(true)(event)}>
            <CheckCheck size={16} aria-hidden />
            {m['staff.tickets.reply.close']()}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}
