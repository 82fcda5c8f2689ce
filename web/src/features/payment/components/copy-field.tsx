import { Check, Copy } from 'lucide-react';
import { Box, Flex } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';
import { useCopyToClipboard } from '@/hooks/use-copy-to-clipboard';
import { m } from '@/paraglide/messages';

type CopyFieldProps = {
  label: string;
  value: string;
  /** The transfer content: the one value the player must not get wrong. */
  emphasized?: boolean;
};

/**
 * One fact of an account to transfer to, copied to the clipboard by a click on it. 'Đã sao
 * chép' shows beside it for 3 s after each copy (spec section 9).
 */
export function CopyField({ label, value, emphasized = false }: CopyFieldProps) {
  const { copied, copy } = useCopyToClipboard();
  return (
    <Box data-testid="copy-field">
      <Text as="dt" fontSize="sm" color="fg.muted" mb="0.5">
        {label}
      </Text>
      <Flex as="dd" align="center" gap="2" wrap="wrap" minW="0">
        <Button
          variant={emphasized ? 'subtle' : 'ghost'}
          colorPalette={emphasized ? 'brand' : 'gray'}
          size="sm"
          h="auto"
          minH="8"
          py="1"
          px="2"
          ms="-2"
          maxW="full"
          whiteSpace="normal"
          textAlign="start"
          justifyContent="flex-start"
          fontFamily={emphasized ? 'mono' : undefined}
          fontSize={emphasized ? 'md' : 'sm'}
          fontWeight={emphasized ? 'bold' : 'semibold'}
          letterSpacing={emphasized ? 'wider' : undefined}
          title={m['payment.transfer.copyHint']()}
          onClick={() => void copy(value)}
        >
          <Text as="span" overflowWrap="anywhere">
            {value}
          </Text>
          {copied ? <Check size={16} aria-hidden /> : <Copy size={16} aria-hidden />}
        </Button>
        <Text as="span" role="status" fontSize="xs" color="fg.success" fontWeight="medium">
          {copied ? m['payment.transfer.copied']() : ''}
        </Text>
      </Flex>
    </Box>
  );
}
