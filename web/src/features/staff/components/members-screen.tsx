import { useState } from 'react';
import { Box, Flex, HStack, Stack } from 'styled-system/jsx';

import { LoadFailed } from '@/components/feedback/load-failed';
import { LoadingText } from '@/components/feedback/loading-text';
import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table } from '@/components/ui/table';
import { Text } from '@/components/ui/text';
import { toaster } from '@/components/ui/toaster-store';
import { PHONE_QUERY, useMediaQuery } from '@/hooks/use-media-query';
import { toApiError } from '@/lib/api-client';
import { m } from '@/paraglide/messages';
import type { StaffBody } from '@/types/api-schema';

import { useMembers } from '../api/get-members';
import { useStaffMe } from '../api/get-staff-me';
import { useUpdateMember } from '../api/update-member';
import { useStaffFailureToast } from '../utils/failure';
import { formatVietnamTime } from '../utils/time';

import { CreateMember } from './create-member';
import { DisableDialog, ResetCredentialsDialog, RoleDialog } from './member-dialogs';
import { RoleBadge } from './role-badge';

type Actions = {
  /** The signed-in admin's own id: their row offers nothing (the server refuses it anyway). */
  selfId: string;
  onChangeRole: (member: StaffBody) => void;
  onDisable: (member: StaffBody) => void;
  onEnable: (member: StaffBody) => void;
  onResetCredentials: (member: StaffBody) => void;
  /** The member being enabled, if any. */
  enablingId: string | null;
};

function StatusBadge({ member }: { member: StaffBody }) {
  return member.disabled ? (
    <Badge colorPalette="red" variant="subtle">
      {m['staff.members.disabled']()}
    </Badge>
  ) : (
    <Badge colorPalette="green" variant="subtle">
      {m['staff.members.active']()}
    </Badge>
  );
}

/** Until the member has used their enrolment link (the first, or the one after a reset). */
function EnrolmentBadge({ member }: { member: StaffBody }) {
  if (!member.enrolmentPending) return null;
  return (
    <Badge colorPalette="orange" variant="subtle">
      {m['staff.members.enrolmentPending']()}
    </Badge>
  );
}

/** Minutes are enough here (the audit log has the seconds). */
const time = (value: string | null) => formatVietnamTime(value, { seconds: false });

/** The username, and under it the address enrolment links go to. */
function Username({ member, selfId }: { member: StaffBody; selfId: string }) {
  return (
    <Stack gap="0">
      <HStack gap="2" flexWrap="wrap">
        <Text as="span" fontWeight="medium" overflowWrap="anywhere">
          {member.username}
        </Text>
        {member.id === selfId && (
          <Badge variant="outline" size="sm">
            {m['staff.members.you']()}
          </Badge>
        )}
      </HStack>
      {member.email && (
        <Text fontSize="sm" color="fg.muted" overflowWrap="anywhere">
          {member.email}
        </Text>
      )}
    </Stack>
  );
}

function CreatedAt({ member }: { member: StaffBody }) {
  return (
    <Text fontSize="sm" color="fg.muted">
      {m['staff.members.createdAt']({ time: time(member.createdAt) })}
    </Text>
  );
}

function MemberActions({
  member,
  selfId,
  onChangeRole,
  onDisable,
  onEnable,
  onResetCredentials,
  enablingId,
}: Actions & { member: StaffBody }) {
  if (member.id === selfId) return null;
  return (
    <HStack
      gap="2"
      flexWrap="wrap"
      role="group"
      aria-label={m['staff.members.actionsOf']({ username: member.username })}
    >
      <Button size="xs" variant="outline" onClick={() => onChangeRole(member)}>
        {m['staff.members.changeRole']()}
      </Button>
      <Button size="xs" variant="outline" onClick={() => onResetCredentials(member)}>
        {m['staff.members.resetCredentials']()}
      </Button>
      {member.disabled ? (
        <Button size="xs" variant="outline" loading={enablingId === member.id} onClick={() => onEnable(member)}>
          {m['staff.members.enable']()}
        </Button>
      ) : (
        <Button size="xs" variant="outline" colorPalette="red" onClick={() => onDisable(member)}>
          {m['staff.members.disable']()}
        </Button>
      )}
    </HStack>
  );
}

function MemberTable({ members, ...actions }: Actions & { members: StaffBody[] }) {
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" minW="2xl" aria-label={m['staff.members.listLabel']()}>
        <Table.Header>
          <Table.Row bg="transparent">
            <Table.ColumnHeader>{m['staff.members.columns.username']()}</Table.ColumnHeader>
            <Table.ColumnHeader>{m['staff.members.columns.role']()}</Table.ColumnHeader>
            <Table.ColumnHeader>{m['staff.members.columns.status']()}</Table.ColumnHeader>
            <Table.ColumnHeader>{m['staff.members.columns.signedInAt']()}</Table.ColumnHeader>
            <Table.ColumnHeader>{m['staff.members.columns.actions']()}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {members.map((member) => (
            <Table.Row key={member.id} bg="transparent" data-member={member.username}>
              <Table.Cell>
                <Username member={member} selfId={actions.selfId} />
                <CreatedAt member={member} />
              </Table.Cell>
              <Table.Cell>
                <RoleBadge role={member.role} />
              </Table.Cell>
              <Table.Cell>
                <HStack gap="2" flexWrap="wrap">
                  <StatusBadge member={member} />
                  <EnrolmentBadge member={member} />
                </HStack>
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap" color="fg.muted">
                {time(member.signedInAt) || m['staff.members.never']()}
              </Table.Cell>
              <Table.Cell>
                <MemberActions member={member} {...actions} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/** On a phone: one block per member, its facts stacked. */
function MemberList({ members, ...actions }: Actions & { members: StaffBody[] }) {
  return (
    <Stack as="ul" aria-label={m['staff.members.listLabel']()} gap="3" listStyleType="none" m="0" p="0">
      {members.map((member) => (
        <Box
          as="li"
          key={member.id}
          data-member={member.username}
          p="3"
          borderWidth="1px"
          borderColor="border"
          borderRadius="lg"
        >
          <Stack gap="2">
            <Username member={member} selfId={actions.selfId} />
            <HStack gap="2" flexWrap="wrap">
              <RoleBadge role={member.role} />
              <StatusBadge member={member} />
              <EnrolmentBadge member={member} />
            </HStack>
            <Stack gap="0">
              <CreatedAt member={member} />
              <Text fontSize="sm" color="fg.muted">
                {member.signedInAt
                  ? m['staff.members.signedInAt']({ time: time(member.signedInAt) })
                  : m['staff.members.never']()}
              </Text>
            </Stack>
            <MemberActions member={member} {...actions} />
          </Stack>
        </Box>
      ))}
    </Stack>
  );
}

/**
 * Staff management (admin only; the navigation shows it to admins, and the server refuses
 * anyone else, whose refusal this page then shows): every member with their role and status,
 * 'Thêm nhân viên', and per member 'Đổi vai trò', 'Đặt lại đăng nhập' and 'Khóa' / 'Mở khóa' (not
 * on one's own row).
 */
export function MembersScreen() {
  const { data: me } = useStaffMe();
  const members = useMembers();
  const enable = useUpdateMember();
  const failureToast = useStaffFailureToast();
  const isPhone = useMediaQuery(PHONE_QUERY);
  const [changingRole, setChangingRole] = useState<StaffBody | null>(null);
  const [disabling, setDisabling] = useState<StaffBody | null>(null);
  const [resetting, setResetting] = useState<StaffBody | null>(null);

  const actions: Actions = {
    selfId: me?.id ?? '',
    onChangeRole: setChangingRole,
    onDisable: setDisabling,
    onResetCredentials: setResetting,
    onEnable: (member) =>
      enable.mutate(
        { id: member.id, role: member.role, disabled: false },
        {
          onSuccess: (changed) =>
            toaster.success({ title: m['staff.members.enabledDone']({ username: changed.username }), closable: true }),
          onError: (error) => failureToast(m['staff.refused'](), error),
        },
      ),
    enablingId: enable.isPending ? (enable.variables?.id ?? null) : null,
  };

  const refused = members.isError && toApiError(members.error).status === 403;

  let body;
  if (members.isPending) body = <LoadingText>{m['staff.members.loading']()}</LoadingText>;
  else if (refused) {
    body = (
      <Alert.Root status="error" borderRadius="lg" role="alert">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{m['staff.refused']()}</Alert.Title>
          <Alert.Description>{toApiError(members.error).message}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
    );
  } else if (members.isError) {
    body = (
      <LoadFailed
        title={m['staff.members.loadFailed']()}
        error={members.error}
        retrying={members.isFetching}
        onRetry={() => void members.refetch()}
      />
    );
  } else if (members.data.length === 0) body = <Text color="fg.muted">{m['staff.members.empty']()}</Text>;
  else
    body = isPhone ? (
      <MemberList members={members.data} {...actions} />
    ) : (
      <MemberTable members={members.data} {...actions} />
    );

  return (
    <>
      <Flex align="flex-start" justify="space-between" gap="3" wrap="wrap">
        <PageHeader title={m['staff.members.title']()} subtitle={m['staff.members.subtitle']()} />
        {members.isSuccess && <CreateMember />}
      </Flex>
      <ContentCard p={{ base: '3', md: '6' }}>{body}</ContentCard>
      {changingRole && <RoleDialog member={changingRole} onClose={() => setChangingRole(null)} />}
      {disabling && <DisableDialog member={disabling} onClose={() => setDisabling(null)} />}
      {resetting && <ResetCredentialsDialog member={resetting} onClose={() => setResetting(null)} />}
    </>
  );
}
