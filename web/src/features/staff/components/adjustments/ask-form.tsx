import { zodResolver } from '@hookform/resolvers/zod';
import { useState, type ComponentProps } from 'react';
import { useForm } from 'react-hook-form';
import { Flex, Grid, Stack } from 'styled-system/jsx';

import { FailureAlert } from '@/components/feedback/failure-alert';
import { Button } from '@/components/ui/button';
import { Field, useFieldContext } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Text } from '@/components/ui/text';
import { toaster } from '@/components/ui/toaster-store';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { placeServerErrors } from '@/lib/server-errors';
import { m } from '@/paraglide/messages';

import {
  ASK_ADJUSTMENT_FIELDS,
  askAdjustmentSchema,
  NoSuchPlayerError,
  useAskAdjustment,
  type AskAdjustmentForm,
  type AskAdjustmentInput,
} from '../../api/ask-adjustment';
import { formatSignedAmount } from '../../utils/amount';
import { staffFailureText } from '../../utils/failure';

/** A reason of several lines: Chakra's input styles on a textarea (the app has no textarea recipe). */
function ReasonInput(props: ComponentProps<'textarea'>) {
  const field = useFieldContext();
  return (
    <Input asChild h="auto" minH="20" py="2" lineHeight="tall" resize="vertical">
      <textarea rows={3} {...field?.getTextareaProps()} {...props} />
    </Input>
  );
}

/**
 * The Idempotency-Key of each ask: the same one while the same ask is sent again (after a
 * failure), a new one for a changed ask or once the last one went through.
 */
function askKeys() {
  let last: { key: string; ask: string } | null = null;
  return {
    keyFor(ask: AskAdjustmentInput): string {
      const fingerprint = JSON.stringify([ask.player.toLowerCase(), ask.kp, ask.reason]);
      if (last?.ask !== fingerprint) last = { key: crypto.randomUUID(), ask: fingerprint };
      return last.key;
    },
    done() {
      last = null;
    },
  };
}

/**
 * 'Tạo điều chỉnh' (finance): the player's username (prefilled from ?player=…), the KP, signed,
 * and a reason. Sent with an Idempotency-Key made for this ask: sending the same ask again after
 * a failure (a timeout, a lost answer) reuses it, so the server makes one adjustment however
 * often it arrives; a changed ask, or the next one after a success, gets a new key.
 */
export function AskForm({ player }: { player: string }) {
  const ask = useAskAdjustment();
  const [keys] = useState(askKeys);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<AskAdjustmentForm, unknown, AskAdjustmentInput>({
    mode: 'onTouched',
    resolver: zodResolver(askAdjustmentSchema),
    defaultValues: { player, kp: '', reason: '' },
  });

  const onSubmit = handleSubmit((input) => {
    ask.mutate(
      { ...input, idempotencyKey: keys.keyFor(input) },
      {
        onSuccess: ({ adjustment }) => {
          keys.done();
          const values = { kp: formatSignedAmount(adjustment.kp), player: input.player };
          toaster.success({
            title:
              adjustment.status === 'pending'
                ? m['staff.adjustments.ask.pendingDone'](values)
                : m['staff.adjustments.ask.appliedDone'](values),
            closable: true,
          });
          reset({ player: '', kp: '', reason: '' });
        },
        onError: (error) => {
          if (error instanceof NoSuchPlayerError) {
            setError(
              'player',
              { type: 'server', message: m['staff.adjustments.ask.playerNotFound']() },
              { shouldFocus: true },
            );
          } else placeServerErrors(error, ASK_ADJUSTMENT_FIELDS, setError);
        },
      },
    );
  });

  const failure = ask.error instanceof NoSuchPlayerError ? null : staffFailureText(ask.error, ASK_ADJUSTMENT_FIELDS);

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      onKeyDown={enterToNextField}
      noValidate
      aria-label={m['staff.adjustments.ask.label']()}
    >
      <Stack gap="4">
        <Text fontWeight="semibold">{m['staff.adjustments.ask.title']()}</Text>
        {failure && <FailureAlert title={m['staff.adjustments.ask.failed']()} text={failure} />}
        <Grid columns={{ base: 1, md: 2 }} gap="4">
          <Field.Root required invalid={!!errors.player}>
            <Field.Label>
              {m['staff.adjustments.ask.player']()}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input {...register('player')} autoComplete="off" autoCapitalize="none" spellCheck={false} />
            <Field.ErrorText>{errors.player?.message}</Field.ErrorText>
          </Field.Root>
          <Field.Root required invalid={!!errors.kp}>
            <Field.Label>
              {m['staff.adjustments.ask.kp']()}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input {...register('kp')} inputMode="numeric" autoComplete="off" fontVariantNumeric="tabular-nums" />
            {errors.kp ? (
              <Field.ErrorText>{errors.kp.message}</Field.ErrorText>
            ) : (
              <Field.HelperText>{m['staff.adjustments.ask.kpHelp']()}</Field.HelperText>
            )}
          </Field.Root>
        </Grid>
        <Field.Root required invalid={!!errors.reason}>
          <Field.Label>
            {m['staff.adjustments.ask.reason']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <ReasonInput {...register('reason')} />
          {errors.reason ? (
            <Field.ErrorText>{errors.reason.message}</Field.ErrorText>
          ) : (
            <Field.HelperText>{m['staff.adjustments.ask.reasonHelp']()}</Field.HelperText>
          )}
        </Field.Root>
        <Flex justify="flex-end">
          <Button type="submit" size="sm" w={{ base: 'full', sm: 'auto' }} loading={ask.isPending}>
            {m['staff.adjustments.ask.submit']()}
          </Button>
        </Flex>
      </Stack>
    </form>
  );
}
