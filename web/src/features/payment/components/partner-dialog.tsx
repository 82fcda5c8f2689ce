import type { ReactNode } from 'react';
import { Box, Stack } from 'styled-system/jsx';

import { Badge } from '@/components/ui/badge';
import { Button, CloseButton } from '@/components/ui/button';
import { Dialog, Portal } from '@/components/ui/dialog';
import { Table } from '@/components/ui/table';
import { Heading, Text } from '@/components/ui/text';
import { PAY_PARTNER } from '@/config/constants';
import { formatNumber } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { User } from '@/types/api-schema';

import { partnerTier, type PartnerTier } from '../utils/partner';

const days = PAY_PARTNER.windowDays;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="1.5">
      <Heading as="h3" size="sm">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}

/** The bonus per 28-day sum, with the partner's own tier marked. */
function TierTable({ current }: { current: PartnerTier | null }) {
  return (
    <Table.Root size="sm" variant="outline" borderRadius="md" overflow="hidden">
      <Table.Caption captionSide="top" textAlign="start" color="fg.muted" mt="0" mb="2">
        {m['payment.partner.tiersCaption']({ days })}
      </Table.Caption>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>{m['payment.partner.tierAmount']({ days })}</Table.ColumnHeader>
          <Table.ColumnHeader textAlign="end">{m['payment.partner.tierBonus']()}</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {PAY_PARTNER.tiers.map((tier) => {
          const isCurrent = tier === current;
          return (
            <Table.Row
              key={tier.cashValue}
              aria-current={isCurrent ? 'true' : undefined}
              bg={isCurrent ? 'blue.subtle' : undefined}
            >
              <Table.Cell fontVariantNumeric="tabular-nums">
                {m['payment.partner.tierFrom']({ amount: formatNumber(tier.cashValue) })}
                {isCurrent && (
                  <Badge colorPalette="blue" variant="solid" size="sm" ms="2">
                    {m['payment.partner.tierCurrent']()}
                  </Badge>
                )}
              </Table.Cell>
              <Table.Cell textAlign="end" fontWeight="semibold">
                {m['payment.partner.percent']({ percent: tier.bonusPercent })}
              </Table.Cell>
            </Table.Row>
          );
        })}
      </Table.Body>
    </Table.Root>
  );
}

/** A fact of the partner's standing: a label and its value. */
function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Text as="dt" fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Text as="dd" fontWeight="semibold" fontVariantNumeric="tabular-nums">
        {value}
      </Text>
    </Box>
  );
}

/**
 * What being a pay partner means (spec sections 2 and 9): for a player who is not one yet, how
 * to become one; for a partner, how to stay one, their 28-day sum and current tier. Both show
 * the bonus table. The content of a `Dialog.Root`, opened by its trigger.
 */
export function PartnerDialog({ user }: { user: User }) {
  const tier = partnerTier(user);
  const next = tier ? PAY_PARTNER.tiers.find((candidate) => candidate.cashValue > user.payAmountLast28Days) : undefined;
  const threshold = formatNumber(PAY_PARTNER.thresholdVnd);

  return (
    <Portal>
      <Dialog.Backdrop />
      <Dialog.Positioner>
        <Dialog.Content>
          <Dialog.Header>
            <Dialog.Title>
              {tier ? m['payment.partner.titlePartner']() : m['payment.partner.titleNotPartner']()}
            </Dialog.Title>
          </Dialog.Header>
          <Dialog.Body>
            <Stack gap="5">
              <Text color="fg.muted">{m['payment.partner.intro']()}</Text>
              {tier ? (
                <>
                  <Box as="dl" display="grid" gridTemplateColumns={{ base: '1fr', sm: '1fr 1fr' }} gap="3">
                    <Fact
                      label={m['payment.partner.payAmount']({ days })}
                      value={m['payment.partner.amountVnd']({ amount: formatNumber(user.payAmountLast28Days) })}
                    />
                    <Fact
                      label={m['payment.partner.currentTier']()}
                      value={m['payment.partner.percent']({ percent: tier.bonusPercent })}
                    />
                  </Box>
                  {next && (
                    <Text fontSize="sm">
                      {m['payment.partner.nextTier']({
                        amount: formatNumber(next.cashValue - user.payAmountLast28Days),
                        days,
                        percent: next.bonusPercent,
                      })}
                    </Text>
                  )}
                  <Section title={m['payment.partner.maintenanceTitle']()}>
                    <Text fontSize="sm">{m['payment.partner.maintenance']({ days, amount: threshold })}</Text>
                  </Section>
                </>
              ) : (
                <Section title={m['payment.partner.activationTitle']()}>
                  <Text fontSize="sm">{m['payment.partner.activation']({ days, amount: threshold })}</Text>
                  <Text fontSize="sm" fontWeight="medium">
                    {m['payment.partner.activationBonus']({ percent: PAY_PARTNER.activationBonusPercent })}
                  </Text>
                </Section>
              )}
              <Section title={m['payment.partner.tiersTitle']()}>
                <TierTable current={tier} />
                <Text fontSize="sm" color="fg.muted">
                  {m['payment.partner.tiersNote']()}
                </Text>
              </Section>
            </Stack>
          </Dialog.Body>
          <Dialog.Footer>
            <Dialog.ActionTrigger asChild>
              <Button variant="outline">{m['form.close']()}</Button>
            </Dialog.ActionTrigger>
          </Dialog.Footer>
          <Dialog.CloseTrigger asChild>
            <CloseButton size="sm" aria-label={m['form.close']()} />
          </Dialog.CloseTrigger>
        </Dialog.Content>
      </Dialog.Positioner>
    </Portal>
  );
}
