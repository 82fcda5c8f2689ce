import { Download, FileCheck, Trash2 } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Flex, HStack, Stack } from 'styled-system/jsx';

import { FailureAlert } from '@/components/feedback/failure-alert';
import { ContentCard } from '@/components/layouts/content-card';
import { Button } from '@/components/ui/button';
import { Separator } from '@/components/ui/separator';
import { Heading, Text } from '@/components/ui/text';
import { toApiError } from '@/lib/api-client';
import { m } from '@/paraglide/messages';
import type { User } from '@/types/api-schema';

import { useExportPersonalData } from '../api/export-personal-data';
import { DeleteAccountDialog } from './delete-account-dialog';

/** One thing the player can do with their data: what it is, its outcome below, its button at the side. */
function Action({ text, outcome, button }: { text: string; outcome?: ReactNode; button: ReactNode }) {
  return (
    <Flex
      direction={{ base: 'column', md: 'row' }}
      align={{ base: 'stretch', md: 'center' }}
      justify="space-between"
      gap={{ base: '3', md: '6' }}
    >
      <Stack gap="2" minW="0" flex="1">
        <Text fontSize="sm" color="fg.muted">
          {text}
        </Text>
        {outcome}
      </Stack>
      {button}
    </Flex>
  );
}

/**
 * 'Dữ liệu cá nhân' (Vietnam's Decree 13/2023 on personal data): 'Tải xuống dữ liệu của tôi'
 * downloads everything Kid holds about the player as one JSON file; 'Xóa tài khoản' opens the
 * modal that closes the account.
 */
export function PersonalData({ user }: { user: User }) {
  const titleId = useId();
  const download = useExportPersonalData();
  // The modal being shown; `key` gives each opening a fresh form.
  const [deleting, setDeleting] = useState<{ open: boolean; key: number } | null>(null);

  const downloadOutcome = download.isSuccess ? (
    <HStack role="status" alignItems="flex-start" gap="2" fontSize="sm" color="fg.success" fontWeight="medium">
      <FileCheck size={18} aria-hidden style={{ flexShrink: 0, marginTop: 1 }} />
      <Text overflowWrap="anywhere">
        {m['profile.personalData.download.done']({ fileName: download.data.fileName })}
      </Text>
    </HStack>
  ) : download.isError ? (
    <FailureAlert title={m['profile.personalData.download.failed']()} text={toApiError(download.error).message} />
  ) : null;

  return (
    <ContentCard as="section" aria-labelledby={titleId}>
      <Stack gap="1" mb="5">
        <Heading as="h2" size="md" id={titleId}>
          {m['profile.personalData.heading']()}
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          {m['profile.personalData.description']()}
        </Text>
      </Stack>
      {/* The rule between the actions holds the space on either side of it. */}
      <Stack gap="0">
        <Action
          text={m['profile.personalData.download.text']()}
          outcome={downloadOutcome}
          button={
            <Button
              type="button"
              variant="outline"
              flexShrink={0}
              loading={download.isPending}
              onClick={() => download.mutate()}
            >
              <Download aria-hidden />
              {m['profile.personalData.download.submit']()}
            </Button>
          }
        />
        <Separator my="5" />
        <Action
          text={m['profile.personalData.delete.text']()}
          button={
            <Button
              type="button"
              variant="outline"
              colorPalette="red"
              flexShrink={0}
              onClick={() => {
                download.reset();
                setDeleting((previous) => ({ open: true, key: (previous?.key ?? 0) + 1 }));
              }}
            >
              <Trash2 aria-hidden />
              {m['profile.personalData.delete.open']()}
            </Button>
          }
        />
      </Stack>
      {deleting && (
        <DeleteAccountDialog
          key={deleting.key}
          user={user}
          open={deleting.open}
          onOpenChange={(open) => setDeleting({ ...deleting, open })}
        />
      )}
    </ContentCard>
  );
}
