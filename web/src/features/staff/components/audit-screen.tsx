import { Download, Filter, X } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Box, Flex, HStack, Stack, styled } from 'styled-system/jsx';

import { LoadFailed } from '@/components/feedback/load-failed';
import { LoadingText } from '@/components/feedback/loading-text';
import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { Separator } from '@/components/ui/separator';
import { Text } from '@/components/ui/text';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { m } from '@/paraglide/messages';

import { auditCsvUrl, useAuditLog, type StaffAction } from '../api/get-audit-log';
import { actionLabel } from '../utils/audit-actions';
import { formatVietnamTime } from '../utils/time';

import { AuditChanges } from './audit-changes';
import { RoleBadge } from './role-badge';

type AuditLog = ReturnType<typeof useAuditLog>;

/** The subject filter, 'Lọc' and 'Bỏ lọc', and beside them 'Tải CSV'. */
function AuditFilters({ subject, onApply }: { subject: string; onApply: (subject: string) => void }) {
  const { register, handleSubmit } = useForm<{ subject: string }>({ defaultValues: { subject } });
  const onSubmit = handleSubmit((input) => onApply(input.subject.trim()));

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      onKeyDown={enterToNextField}
      noValidate
      aria-label={m['staff.audit.filters.label']()}
    >
      <Flex gap="3" wrap="wrap" align="flex-end">
        <Field.Root flex="1" minW={{ base: 'full', sm: '64' }}>
          <Field.Label>{m['staff.audit.filters.subject']()}</Field.Label>
          <Input
            size="sm"
            {...register('subject')}
            placeholder={m['staff.audit.filters.subjectPlaceholder']()}
            autoCapitalize="none"
            spellCheck={false}
            fontFamily="mono"
          />
        </Field.Root>
        <HStack gap="2" flexWrap="wrap">
          <Button type="submit" size="sm">
            <Filter size={16} aria-hidden />
            {m['staff.audit.filters.apply']()}
          </Button>
          {subject && (
            <Button type="button" size="sm" variant="ghost" onClick={() => onApply('')}>
              <X size={16} aria-hidden />
              {m['staff.audit.filters.clear']()}
            </Button>
          )}
          <Button asChild size="sm" variant="outline">
            <a href={auditCsvUrl(subject)} download title={m['staff.audit.csvHint']()}>
              <Download size={16} aria-hidden />
              {m['staff.audit.csv']()}
            </a>
          </Button>
        </HStack>
      </Flex>
    </form>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <HStack gap="1.5" minW="0" alignItems="baseline">
      <Text as="span" color="fg.muted" flexShrink={0}>
        {label}
      </Text>
      {children}
    </HStack>
  );
}

/** One action: what, when, who (role, address) and on what, and what it changed. */
function AuditEntry({ action }: { action: StaffAction }) {
  const label = actionLabel(action.action);
  return (
    <Box
      as="li"
      p={{ base: '3', md: '4' }}
      borderWidth="1px"
      borderColor="border"
      borderRadius="lg"
      data-action={action.action}
    >
      <Flex justify="space-between" align="flex-start" gap="2" wrap="wrap">
        <Stack gap="0.5" minW="0">
          <Text fontWeight="semibold">{label ?? action.action}</Text>
          {label && (
            <Text fontFamily="mono" fontSize="xs" color="fg.muted">
              {action.action}
            </Text>
          )}
        </Stack>
        <styled.time
          dateTime={action.occurredAt ?? undefined}
          fontSize="sm"
          color="fg.muted"
          fontVariantNumeric="tabular-nums"
        >
          {formatVietnamTime(action.occurredAt)}
        </styled.time>
      </Flex>
      <Flex mt="2" columnGap="4" rowGap="1" wrap="wrap" align="center" fontSize="sm">
        <HStack gap="2" minW="0">
          <Text as="span" fontWeight="medium" overflowWrap="anywhere">
            {action.staffUsername}
          </Text>
          <RoleBadge role={action.staffRole} size="sm" />
        </HStack>
        <Fact label={m['staff.audit.ip']()}>
          <Text as="span" fontFamily="mono" fontSize="xs">
            {action.ip}
          </Text>
        </Fact>
        <Fact label={m['staff.audit.service']()}>
          <Text as="span">{action.service}</Text>
        </Fact>
      </Flex>
      {action.subject && (
        <Box mt="1" fontSize="sm">
          <Fact label={m['staff.audit.subject']()}>
            <Link
              asChild
              color="brand.fg"
              minW="0"
              title={m['staff.audit.filterBySubject']({ subject: action.subject })}
            >
              <RouterLink to={{ search: `?${new URLSearchParams({ subject: action.subject }).toString()}` }}>
                <Text as="span" fontFamily="mono" fontSize="xs" overflowWrap="anywhere">
                  {action.subject}
                </Text>
              </RouterLink>
            </Link>
          </Fact>
        </Box>
      )}
      <Box mt="3" _empty={{ display: 'none' }}>
        <AuditChanges before={action.before} after={action.after} />
      </Box>
    </Box>
  );
}

function Results({ log, filtered }: { log: AuditLog; filtered: boolean }) {
  // Rows with the same time as a page's last one may come again on the next: each once.
  const actions = useMemo(() => {
    const seen = new Set<string>();
    return (log.data?.pages.flat() ?? []).filter((action) => !seen.has(action.id) && !!seen.add(action.id));
  }, [log.data]);

  if (log.isPending) return <LoadingText>{m['staff.audit.loading']()}</LoadingText>;
  if (log.isError && !log.isFetchNextPageError) {
    return (
      <LoadFailed
        title={m['staff.audit.loadFailed']()}
        error={log.error}
        retrying={log.isFetching}
        onRetry={() => void log.refetch()}
      />
    );
  }
  if (actions.length === 0) {
    return <Text color="fg.muted">{filtered ? m['staff.audit.emptyFiltered']() : m['staff.audit.empty']()}</Text>;
  }

  return (
    <Stack gap="5">
      <Stack as="ul" aria-label={m['staff.audit.listLabel']()} gap="3" listStyleType="none" m="0" p="0">
        {actions.map((action) => (
          <AuditEntry key={action.id} action={action} />
        ))}
      </Stack>
      {log.isFetchNextPageError && (
        <LoadFailed
          title={m['staff.audit.loadMoreFailed']()}
          error={log.error}
          retrying={log.isFetchingNextPage}
          onRetry={() => void log.fetchNextPage()}
        />
      )}
      <Flex align="center" justify="space-between" gap="3" wrap="wrap">
        <Text fontSize="sm" color="fg.muted" role="status">
          {log.hasNextPage
            ? m['staff.audit.shown']({ count: actions.length })
            : m['staff.audit.allShown']({ count: actions.length })}
        </Text>
        {log.hasNextPage && (
          <Button
            variant="outline"
            size="sm"
            w={{ base: 'full', sm: 'auto' }}
            loading={log.isFetchingNextPage}
            onClick={() => void log.fetchNextPage()}
          >
            {m['staff.audit.loadMore']()}
          </Button>
        )}
      </Flex>
    </Stack>
  );
}

/**
 * The audit log (every role): every staff action, newest first, 50 at a time ('Xem thêm' asks
 * for those before the last one shown), filtered by subject through the page's query string
 * (?subject=…, so a filtered log is a link to share); a subject in the list filters by it.
 * 'Tải CSV' downloads the same filter's rows. Times are Vietnam's.
 */
export function AuditScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const subject = searchParams.get('subject')?.trim() ?? '';
  const log = useAuditLog(subject);

  const apply = (next: string) => {
    if (next !== subject) setSearchParams(next ? { subject: next } : {});
  };

  return (
    <>
      <PageHeader title={m['staff.audit.title']()} subtitle={m['staff.audit.subtitle']()} />
      <ContentCard p={{ base: '3', md: '6' }}>
        {/* A new form per URL: the back button brings its filter back into the field. */}
        <AuditFilters key={subject} subject={subject} onApply={apply} />
        <Separator my={{ base: '4', md: '6' }} />
        <Results log={log} filtered={subject !== ''} />
      </ContentCard>
    </>
  );
}
