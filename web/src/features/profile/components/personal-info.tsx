import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { Box } from 'styled-system/jsx';

import { ContentCard } from '@/components/layouts/content-card';
import { Button } from '@/components/ui/button';
import { Heading } from '@/components/ui/text';
import { formatCalendarDate } from '@/lib/format';
import { m } from '@/paraglide/messages';
import type { User } from '@/types/api-schema';

import { LANGUAGE_NAMES } from '../api/update-profile';

import { EditDialog, type ProfileEdit } from './edit-dialogs';

import { InfoRow, VerifiedBadge } from '@/components/data-display/info-row';

/** The name in Vietnamese order (family, middle, given: "Nguyễn Văn An"), or null when none is set. */
function fullName(user: Pick<User, 'firstName' | 'middleName' | 'lastName'>): string | null {
  const parts = [user.lastName, user.middleName, user.firstName].map((part) => part.trim()).filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : null;
}

type PersonalInfoProps = {
  user: User;
  /** A modal opened: the last success banner goes (spec section 4, starting an action). */
  onEditStart: () => void;
  /** A modal saved its change; `message` is its success text. */
  onSaved: (message: string) => void;
};

/**
 * The rows of spec section 2, "Personal info": name, language and phone each open their
 * modal; birth date cannot be changed, and the email is changed on /security.
 */
export function PersonalInfo({ user, onEditStart, onSaved }: PersonalInfoProps) {
  // Any other code is shown as sent.
  const languageName = (LANGUAGE_NAMES as Partial<Record<string, () => string>>)[user.language];
  // The edit being shown; `key` gives each opening a fresh form.
  const [dialog, setDialog] = useState<{ edit: ProfileEdit; open: boolean; key: number } | null>(null);

  const editButton = (edit: ProfileEdit, label: string) => (
    <Button
      size="sm"
      variant="ghost"
      flexShrink={0}
      aria-label={m['profile.edit.action']({ field: label })}
      onClick={() => {
        onEditStart();
        setDialog((previous) => ({ edit, open: true, key: (previous?.key ?? 0) + 1 }));
      }}
    >
      <Pencil aria-hidden />
      {m['profile.edit.change']()}
    </Button>
  );

  return (
    <ContentCard>
      <Heading as="h2" size="md" mb="4">
        {m['profile.details']()}
      </Heading>
      <Box as="dl">
        <InfoRow
          label={m['profile.fields.name']()}
          value={fullName(user)}
          action={editButton('name', m['profile.fields.name']())}
        />
        <InfoRow label={m['profile.fields.dob']()} value={user.dob && formatCalendarDate(user.dob)} />
        <InfoRow
          label={m['profile.fields.language']()}
          value={languageName ? languageName() : user.language}
          action={editButton('language', m['profile.fields.language']())}
        />
        <InfoRow
          label={m['profile.fields.phoneNumber']()}
          value={user.phoneNumber}
          action={editButton('phoneNumber', m['profile.fields.phoneNumber']())}
        />
        <InfoRow
          label={m['profile.fields.email']()}
          value={user.email}
          adornment={<VerifiedBadge verified={!!user.verifiedAt} />}
        />
      </Box>
      {dialog && (
        <EditDialog
          key={dialog.key}
          edit={dialog.edit}
          user={user}
          open={dialog.open}
          onOpenChange={(open) => setDialog({ ...dialog, open })}
          onSaved={(message) => {
            setDialog({ ...dialog, open: false });
            onSaved(message);
          }}
        />
      )}
    </ContentCard>
  );
}
