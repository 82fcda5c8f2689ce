import { Search } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Flex, Stack, styled } from 'styled-system/jsx';

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

import { usePlayerSearch, type FoundPlayer } from '../../api/search-players';
import { playerPath } from '../../config/paths';
import { formatVietnamTime } from '../../utils/time';

import { PlayerBadges } from './player-badges';

function SearchForm({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ q: string }>({ defaultValues: { q } });
  const onSubmit = handleSubmit((input) => onSearch(input.q.trim()));

  return (
    <form
      role="search"
      aria-label={m['staff.players.search.label']()}
      onSubmit={(event) => void onSubmit(event)}
      onKeyDown={enterToNextField}
      noValidate
    >
      <Flex gap="3" align="flex-start" wrap={{ base: 'wrap', sm: 'nowrap' }}>
        <Field.Root invalid={!!errors.q} flex="1" minW="0">
          <Field.Label srOnly>{m['staff.players.search.query']()}</Field.Label>
          <Input
            type="search"
            {...register('q', { validate: (value) => value.trim() !== '' || m['staff.players.search.required']() })}
            placeholder={m['staff.players.search.placeholder']()}
            autoCapitalize="none"
            autoComplete="off"
            spellCheck={false}
          />
          <Field.ErrorText>{errors.q?.message}</Field.ErrorText>
        </Field.Root>
        <Button type="submit" w={{ base: 'full', sm: 'auto' }}>
          <Search size={16} aria-hidden />
          {m['staff.players.search.submit']()}
        </Button>
      </Flex>
    </form>
  );
}

function PlayerResult({ player }: { player: FoundPlayer }) {
  return (
    <styled.li
      p={{ base: '3', md: '4' }}
      borderWidth="1px"
      borderColor="border"
      borderRadius="lg"
      data-player={player.username}
    >
      <Flex justify="space-between" align="flex-start" gap="2" wrap="wrap">
        <Link asChild color="brand.fg" fontWeight="semibold" overflowWrap="anywhere" minW="0">
          <RouterLink to={playerPath(player.id)}>{player.username}</RouterLink>
        </Link>
        <PlayerBadges player={player} />
      </Flex>
      <Flex mt="1" columnGap="4" rowGap="0.5" wrap="wrap" fontSize="sm" color="fg.muted">
        <Text overflowWrap="anywhere" minW="0">
          {player.email || m['staff.players.none']()}
        </Text>
        {player.phoneNumber && <Text>{player.phoneNumber}</Text>}
        {player.createdAt && (
          <Text>{m['staff.players.createdAt']({ time: formatVietnamTime(player.createdAt, { seconds: false }) })}</Text>
        )}
      </Flex>
      <Text mt="1" fontFamily="mono" fontSize="xs" color="fg.muted" overflowWrap="anywhere">
        {player.id}
      </Text>
    </styled.li>
  );
}

function Results({ q }: { q: string }) {
  const search = usePlayerSearch(q);

  if (!q) return <Text color="fg.muted">{m['staff.players.hint']()}</Text>;
  if (search.isPending) return <LoadingText>{m['staff.players.loading']()}</LoadingText>;
  if (search.isError) {
    return (
      <LoadFailed
        title={m['staff.players.loadFailed']()}
        error={search.error}
        retrying={search.isFetching}
        onRetry={() => void search.refetch()}
      />
    );
  }
  if (search.isPlaceholderData) return <LoadingText>{m['staff.players.loading']()}</LoadingText>;
  if (search.data.length === 0) return <Text color="fg.muted">{m['staff.players.empty']({ q })}</Text>;
  return (
    <Stack gap="4">
      <Text fontSize="sm" color="fg.muted" role="status">
        {m['staff.players.count']({ count: search.data.length, q })}
      </Text>
      <Stack as="ul" aria-label={m['staff.players.listLabel']()} gap="3" listStyleType="none" m="0" p="0">
        {search.data.map((player) => (
          <PlayerResult key={player.id} player={player} />
        ))}
      </Stack>
    </Stack>
  );
}

/**
 * 'Tra cứu người chơi' (every role): finds players by username or its start, email, phone, id,
 * transfer content or transaction id. The query is the page's ?q=…, so the back button and a
 * shared link bring the same results; each leads to the player's page.
 */
export function PlayersScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get('q')?.trim() ?? '';

  return (
    <>
      <PageHeader title={m['staff.players.title']()} subtitle={m['staff.players.subtitle']()} />
      <ContentCard p={{ base: '3', md: '6' }}>
        {/* A new form per URL: the back button brings its query back into the field. */}
        <SearchForm key={q} q={q} onSearch={(next) => setSearchParams(next ? { q: next } : {})} />
        <Separator my={{ base: '4', md: '6' }} />
        <Results q={q} />
      </ContentCard>
    </>
  );
}
