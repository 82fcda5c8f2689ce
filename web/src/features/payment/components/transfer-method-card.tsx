import { QRCodeSVG } from 'qrcode.react';
import { useId } from 'react';
import { Box, Flex, Stack } from 'styled-system/jsx';

import { Heading, Text } from '@/components/ui/text';
import { QR_CODE_LEVEL, QR_CODE_SIZE, TRANSFER_RATE_EXAMPLE_VND } from '@/config/constants';
import { formatNumber } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { TransferMethod } from '@/types/api-schema';

import { partnerBonusKp, transferKp } from '../utils/kp';

import { CopyField } from './copy-field';

type TransferMethodCardProps = {
  method: TransferMethod;
  /** The player's partner bonus on a top-up; 0 when not a partner. */
  bonusPercent: number;
};

/**
 * One bank or e-wallet account: its VietQR code (on white, so a phone can scan it in dark
 * mode too), the account name, number and the player's transfer content, each click-to-copy,
 * and what 10,000 VND brings.
 */
export function TransferMethodCard({ method, bonusPercent }: TransferMethodCardProps) {
  const titleId = useId();
  const isWallet = method.type === 'e-wallet';
  const number = isWallet ? method.mobileAccountNumber || method.accountNumber : method.accountNumber;
  const kp = transferKp(TRANSFER_RATE_EXAMPLE_VND, method.exchangeRate);
  const bonus = partnerBonusKp(kp, bonusPercent);

  return (
    <Box
      as="section"
      aria-labelledby={titleId}
      borderWidth="1px"
      borderColor="border"
      borderRadius="xl"
      bg="bg.subtle"
      p={{ base: '4', md: '5' }}
    >
      <Flex
        direction={{ base: 'column', md: 'row' }}
        gap={{ base: '4', md: '6' }}
        align={{ base: 'stretch', md: 'flex-start' }}
      >
        {method.qrCodeData && (
          <Box
            alignSelf={{ base: 'center', md: 'flex-start' }}
            flexShrink={0}
            p="3"
            bg="white"
            borderRadius="lg"
            borderWidth="1px"
            borderColor="gray.200"
            lineHeight="0"
          >
            <QRCodeSVG
              value={method.qrCodeData}
              size={QR_CODE_SIZE}
              level={QR_CODE_LEVEL}
              bgColor="#ffffff"
              fgColor="#000000"
              title={m['payment.transfer.qr']({ name: method.name })}
            />
          </Box>
        )}
        <Stack gap="3" flex="1" minW="0">
          <Heading as="h3" size="md" id={titleId}>
            {method.name}
          </Heading>
          <Box as="dl" display="grid" gap="2">
            <CopyField label={m['payment.transfer.accountName']()} value={method.accountName} />
            <CopyField
              label={isWallet ? m['payment.transfer.phoneNumber']() : m['payment.transfer.accountNumber']()}
              value={number}
            />
            <CopyField label={m['payment.transfer.content']()} value={method.paymentSyntax} emphasized />
          </Box>
          <Text fontSize="sm" fontVariantNumeric="tabular-nums" data-testid="transfer-rate">
            {m['payment.transfer.rate']({ vnd: formatNumber(TRANSFER_RATE_EXAMPLE_VND), kp: formatNumber(kp) })}
            {bonusPercent > 0 && (
              <Text as="span" color="blue.fg" fontWeight="medium">
                {' '}
                {m['payment.transfer.rateBonus']({ bonus: formatNumber(bonus), percent: bonusPercent })}
              </Text>
            )}
          </Text>
        </Stack>
      </Flex>
    </Box>
  );
}
