import { useId, useState } from 'react';
import { Box } from 'styled-system/jsx';

import { InfoRow, VerifiedBadge } from '@/components/data-display/info-row';
import { ContentCard } from '@/components/layouts/content-card';
import { Button } from '@/components/ui/button';
import { m } from '@/paraglide/messages';
import type { User } from '@/types/api-schema';

import { ChangeEmailDialog } from './change-email-dialog';
import { SectionHeader } from './section-header';
import { SuccessBanner } from '@/components/feedback/success-banner';

/**
 * The address that receives security codes, whether it is verified, and the modal that changes
 * it. After a change the page says so and that the new address is not verified yet.
 */
export function ProtectiveEmail({ user }: { user: Pick<User, 'email' | 'verifiedAt'> }) {
  const titleId = useId();
  // `key` gives each opening a fresh form; null until first opened.
  const [dialog, setDialog] = useState<{ open: boolean; key: number } | null>(null);
  const [changedTo, setChangedTo] = useState<string | null>(null);

  const openDialog = () => {
    // Starting another change clears the last one's success.
    setChangedTo(null);
    setDialog((previous) => ({ open: true, key: (previous?.key ?? 0) + 1 }));
  };
  const closeDialog = () => setDialog((previous) => previous && { ...previous, open: false });

  return (
    <ContentCard as="section" aria-labelledby={titleId}>
      <SectionHeader
        id={titleId}
        title={m['security.email.heading']()}
        description={m['security.email.description']()}
      />
      {changedTo && (
        <SuccessBanner title={m['security.email.success']()}>
          {m['security.email.successText']({ email: changedTo })}
        </SuccessBanner>
      )}
      <Box as="dl">
        <InfoRow
          label={m['security.email.label']()}
          value={user.email}
          adornment={<VerifiedBadge verified={!!user.verifiedAt} />}
          action={
            <Button size="sm" variant="outline" flexShrink={0} onClick={openDialog}>
              {m['security.email.change']()}
            </Button>
          }
        />
      </Box>
      {dialog && (
        <ChangeEmailDialog
          key={dialog.key}
          open={dialog.open}
          onOpenChange={(open) => (open ? openDialog() : closeDialog())}
          current={user}
          onChanged={(updated) => {
            setChangedTo(updated.email);
            closeDialog();
          }}
        />
      )}
    </ContentCard>
  );
}
