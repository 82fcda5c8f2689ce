import { Alert, Box, Button, Code, Dialog, Flex, Portal, Stack, Text } from '@chakra-ui/react';
import { Check, Copy } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';

import { useCopyToClipboard } from '@/hooks/use-copy-to-clipboard';
import type { CreatedStaffBody } from '@/types/api-schema';

/** As the player's two-factor set-up: an otpauth URL wants a larger code than a transfer's. */
const QR_SIZE = 176;

type SecretRowProps = { label: string; value: string; copyLabel: string; testId: string };

function SecretRow({ label, value, copyLabel, testId }: SecretRowProps) {
  const { t } = useTranslation();
  const { copied, copy } = useCopyToClipboard();
  return (
    <Stack gap="1.5">
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Flex align="center" gap="2" wrap="wrap">
        <Code
          data-testid={testId}
          size="lg"
          fontFamily="mono"
          letterSpacing="wider"
          overflowWrap="anywhere"
          wordBreak="break-all"
          userSelect="all"
        >
          {value}
        </Code>
        <Button type="button" size="xs" variant="outline" onClick={() => void copy(value)} aria-label={copyLabel} title={copyLabel}>
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          {copied ? t('staff.members.created.copied') : t('staff.members.created.copy')}
        </Button>
      </Flex>
    </Stack>
  );
}

type CreatedMemberDialogProps = {
  created: CreatedStaffBody;
  /** The admin has saved them: the dialog closes and the secrets are dropped. */
  onDone: () => void;
};

/**
 * What a new member needs, shown this once: the generated password, the authenticator app's
 * secret and its QR code, under a warning that they will not be shown again. 'Tôi đã lưu thông
 * tin' is the only way out, so a stray click or Escape does not lose them.
 */
export function CreatedMemberDialog({ created, onDone }: CreatedMemberDialogProps) {
  const { t } = useTranslation();
  const { username } = created.staff;
  return (
    <Dialog.Root open role="alertdialog" placement="center" size="md" closeOnInteractOutside={false} closeOnEscape={false}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{t('staff.members.created.title', { username })}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Alert.Root status="warning" borderRadius="lg">
                  <Alert.Indicator />
                  <Alert.Content>
                    <Alert.Title>{t('staff.members.created.warningTitle')}</Alert.Title>
                    <Alert.Description>{t('staff.members.created.warning', { username })}</Alert.Description>
                  </Alert.Content>
                </Alert.Root>
                <SecretRow
                  label={t('staff.members.created.password')}
                  value={created.password}
                  copyLabel={t('staff.members.created.copyPassword')}
                  testId="staff-password"
                />
                <SecretRow
                  label={t('staff.members.created.secret')}
                  value={created.totpSecret}
                  copyLabel={t('staff.members.created.copySecret')}
                  testId="staff-totp-secret"
                />
                <Text fontSize="sm">{t('staff.members.created.scan')}</Text>
                <Box alignSelf="center" p="3" bg="white" borderRadius="lg" borderWidth="1px" borderColor="gray.200" lineHeight="0">
                  <QRCodeSVG
                    value={created.otpauthUrl}
                    size={QR_SIZE}
                    level="M"
                    bgColor="#ffffff"
                    fgColor="#000000"
                    title={t('staff.members.created.qr', { username })}
                  />
                </Box>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button type="button" onClick={onDone}>
                {t('staff.members.created.done')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
