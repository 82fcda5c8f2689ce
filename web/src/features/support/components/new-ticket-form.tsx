import { zodResolver } from '@hookform/resolvers/zod';
import { Send } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link as RouterLink } from 'react-router';
import { Stack } from 'styled-system/jsx';

import { FailureAlert } from '@/components/feedback/failure-alert';
import { SuccessBanner } from '@/components/feedback/success-banner';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { NativeSelect } from '@/components/ui/native-select';
import { Text } from '@/components/ui/text';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { failureText } from '@/lib/failure-text';
import { placeServerErrors } from '@/lib/server-errors';
import { m } from '@/paraglide/messages';

import { useTicketTransactions } from '../api/get-ticket-transactions';
import { useOpenTicket } from '../api/open-ticket';
import { ticketInputSchema, type TicketField, type TicketInput } from '../api/schemas';
import { supportPaths } from '../config/paths';
import { CATEGORY_TEXT, TICKET_CATEGORIES } from '../utils/ticket-text';
import { transactionOption } from '../utils/transaction-option';

import { AttachmentField } from './attachment-field';
import { MessageBodyInput } from './message-body-input';

const FIELDS: readonly TicketField[] = ['category', 'subject', 'body', 'transactionId', 'attachment'];

const EMPTY: TicketInput = { category: '', subject: '', body: '', transactionId: '', attachment: null };

/**
 * 'Tạo yêu cầu hỗ trợ': a category, a subject, what happened, optionally the transaction of the
 * player's history it is about (the latest ones, shown as the history shows them) and an image.
 * The image's size is checked as soon as it is picked; its type the server judges by its bytes.
 * The server's refusals go beside their fields; too many tickets today is said above the button.
 * A sent ticket clears the form and offers its page; the list beside it shows it.
 */
export function NewTicketForm() {
  const transactions = useTicketTransactions();
  const open = useOpenTicket();
  const {
    control,
    register,
    handleSubmit,
    setError,
    setFocus,
    trigger,
    reset,
    formState: { errors },
  } = useForm<TicketInput>({
    resolver: zodResolver(ticketInputSchema),
    defaultValues: EMPTY,
  });

  const onSubmit = handleSubmit((input) => {
    open.mutate(input, {
      onSuccess: () => reset(EMPTY),
      onError: (error) => placeServerErrors(error, FIELDS, setError),
    });
  });

  // Enter in the subject goes on to the description (a textarea, which enterToNextField leaves alone).
  const subjectKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    event.preventDefault();
    setFocus('body');
  };

  const failure = open.error ? failureText(open.error, FIELDS) : null;
  // The schema's texts and the server's messages alike.
  const message = (field: TicketField) => errors[field]?.message;

  return (
    <form onSubmit={(event) => void onSubmit(event)} onKeyDown={enterToNextField} noValidate>
      {open.isSuccess && (
        <SuccessBanner title={m['support.newTicket.sent']()} onClose={() => open.reset()}>
          <Text as="span">{m['support.newTicket.sentHint']()} </Text>
          <Link asChild color="brand.fg" fontWeight="medium">
            <RouterLink to={supportPaths.ticket(open.data.ticket.id)}>{m['support.newTicket.view']()}</RouterLink>
          </Link>
        </SuccessBanner>
      )}
      <Stack gap="5">
        <Field.Root required invalid={!!message('category')}>
          <Field.Label>
            {m['support.newTicket.category']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field {...register('category')}>
              <option value="" disabled>
                {m['support.newTicket.categoryPlaceholder']()}
              </option>
              {TICKET_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {CATEGORY_TEXT[category]()}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Field.ErrorText>{message('category')}</Field.ErrorText>
        </Field.Root>

        <Field.Root required invalid={!!message('subject')}>
          <Field.Label>
            {m['support.newTicket.subject']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input
            {...register('subject')}
            placeholder={m['support.newTicket.subjectPlaceholder']()}
            autoComplete="off"
            onKeyDown={subjectKeyDown}
          />
          <Field.ErrorText>{message('subject')}</Field.ErrorText>
        </Field.Root>

        <Field.Root required invalid={!!message('body')}>
          <Field.Label>
            {m['support.newTicket.body']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <MessageBodyInput {...register('body')} placeholder={m['support.newTicket.bodyPlaceholder']()} />
          <Field.ErrorText>{message('body')}</Field.ErrorText>
        </Field.Root>

        <Field.Root invalid={!!message('transactionId')}>
          <Field.Label>
            {m['support.newTicket.transaction']()}
            <Text as="span" color="fg.muted" fontWeight="normal">
              {m['support.optional']()}
            </Text>
          </Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field {...register('transactionId')}>
              <option value="">{m['support.newTicket.noTransaction']()}</option>
              {transactions.data?.map((transaction) => (
                <option key={transaction.id} value={transaction.id}>
                  {transactionOption(transaction)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {message('transactionId') ? (
            <Field.ErrorText>{message('transactionId')}</Field.ErrorText>
          ) : (
            transactions.isError && <Field.HelperText>{m['support.newTicket.transactionsFailed']()}</Field.HelperText>
          )}
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
              error={message('attachment')}
            />
          )}
        />

        {failure && <FailureAlert title={m['support.newTicket.failed']()} text={failure} />}

        <Button
          type="submit"
          alignSelf={{ base: 'stretch', sm: 'flex-start' }}
          minW={{ sm: '40' }}
          loading={open.isPending}
        >
          <Send size={18} aria-hidden />
          {m['support.newTicket.submit']()}
        </Button>
      </Stack>
    </form>
  );
}
