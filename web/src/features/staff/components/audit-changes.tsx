import { Box, Grid, Stack } from 'styled-system/jsx';

import { Table } from '@/components/ui/table';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value compactly: text as it is, anything else as JSON. */
const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function Pre({ label, value }: { label: string; value: unknown }) {
  return (
    <Stack gap="1" minW="0">
      <Text fontSize="xs" color="fg.muted" fontWeight="medium">
        {label}
      </Text>
      <Box
        as="pre"
        m="0"
        p="2"
        bg="bg.subtle"
        borderRadius="md"
        fontSize="xs"
        whiteSpace="pre-wrap"
        overflowWrap="anywhere"
      >
        {value === null || value === undefined ? m['staff.audit.none']() : JSON.stringify(value, null, 2)}
      </Box>
    </Stack>
  );
}

/**
 * What an action changed, field by field: before and after side by side, a changed value in
 * bold. Nothing when the action changed no state (a sign-in, say). Values that are not JSON
 * objects (which the services do not send today) show as two blocks of JSON.
 */
export function AuditChanges({ before, after }: { before: unknown; after: unknown }) {
  const none = (value: unknown) => value === null || value === undefined;
  if (none(before) && none(after)) return null;

  if ((!none(before) && !isObject(before)) || (!none(after) && !isObject(after))) {
    return (
      <Grid columns={{ base: 1, sm: 2 }} gap="2">
        <Pre label={m['staff.audit.before']()} value={before} />
        <Pre label={m['staff.audit.after']()} value={after} />
      </Grid>
    );
  }

  const was: Json = isObject(before) ? before : {};
  const is: Json = isObject(after) ? after : {};
  const fields = [...new Set([...Object.keys(was), ...Object.keys(is)])];
  return (
    <Table.Root size="sm" variant="outline" tableLayout="fixed" aria-label={m['staff.audit.changes']()}>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader w="30%">{m['staff.audit.field']()}</Table.ColumnHeader>
          <Table.ColumnHeader>{m['staff.audit.before']()}</Table.ColumnHeader>
          <Table.ColumnHeader>{m['staff.audit.after']()}</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {fields.map((field) => {
          const changed = show(was[field]) !== show(is[field]);
          const cell = (side: Json, strong: boolean) => (
            <Table.Cell
              overflowWrap="anywhere"
              fontWeight={strong ? 'bold' : undefined}
              color={strong ? 'fg' : 'fg.muted'}
            >
              {field in side ? (
                <Text as="span" fontFamily="mono" fontSize="xs">
                  {show(side[field])}
                </Text>
              ) : (
                <Text as="span" color="fg.subtle">
                  {m['staff.audit.none']()}
                </Text>
              )}
            </Table.Cell>
          );
          return (
            <Table.Row key={field}>
              <Table.Cell overflowWrap="anywhere">
                <Text as="span" fontFamily="mono" fontSize="xs" color="fg.muted">
                  {field}
                </Text>
              </Table.Cell>
              {cell(was, false)}
              {cell(is, changed)}
            </Table.Row>
          );
        })}
      </Table.Body>
    </Table.Root>
  );
}
