import { zodResolver } from '@hookform/resolvers/zod';
import { Filter, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import { Flex, Grid } from 'styled-system/jsx';

import { DateTextInput } from '@/components/form/date-text-input';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import type { FieldErrors } from '@/lib/api-client';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { m } from '@/paraglide/messages';

import {
  FILTER_STATUSES,
  FILTER_TYPES,
  filtersSchema,
  hasFilters,
  NO_FILTERS,
  type FilterField,
  type FiltersInput,
  type TransactionFilters,
} from '../utils/filters';
import { STATUS_TEXT } from '../utils/transaction-text';

const TYPE_LABELS = {
  'topup.bank-transfer': m['transactions.all.filters.types.bankTransfer'],
  'topup.e-wallet': m['transactions.all.filters.types.eWallet'],
  'topup.card': m['transactions.all.filters.types.card'],
  'credit.pay': m['transactions.all.filters.types.pay'],
  giftcode: m['transactions.all.filters.types.giftcode'],
  adjustment: m['transactions.all.filters.types.adjustment'],
} satisfies Record<(typeof FILTER_TYPES)[number], () => string>;

const FIELD_LABELS = {
  type: m['transactions.all.filters.type'],
  status: m['transactions.all.filters.status'],
  from: m['transactions.all.filters.from'],
  to: m['transactions.all.filters.to'],
} satisfies Record<FilterField, () => string>;

const isOneOf = <T extends string>(values: readonly T[], value: string): value is T =>
  (values as readonly string[]).includes(value);

/**
 * The form's start: the URL's filters, but a type or status no option has (typed into the URL)
 * starts as 'all', beside the server's message about it, so that 'Lọc' mends the link.
 */
const formValues = (filters: TransactionFilters): FiltersInput => ({
  type: isOneOf(FILTER_TYPES, filters.type) ? filters.type : '',
  status: isOneOf(FILTER_STATUSES, filters.status) ? filters.status : '',
  from: filters.from,
  to: filters.to,
});

type HistoryFiltersProps = {
  /** The filters of the page's URL: the form starts from them (mount it anew when they change). */
  filters: TransactionFilters;
  /** The server's messages about these filters (a 422), shown beside the field until it is edited. */
  serverErrors: FieldErrors;
  onApply: (filters: TransactionFilters) => void;
  /** Beside the buttons: the CSV download. */
  children?: ReactNode;
};

/**
 * The full history's filters: type, status and a range of days. 'Lọc' puts them in the page's
 * query string (a new history entry, so the back button returns to the filters before), which
 * the list and the CSV link follow; 'Xóa bộ lọc' clears them.
 */
export function HistoryFilters({ filters, serverErrors, onApply, children }: HistoryFiltersProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, dirtyFields },
  } = useForm<FiltersInput>({
    resolver: zodResolver(filtersSchema),
    defaultValues: formValues(filters),
  });

  const message = (field: FilterField): string | undefined => {
    const error: FieldError | undefined = errors[field];
    if (error?.message) return error.message;
    return dirtyFields[field] ? undefined : serverErrors[field]?.[0];
  };

  const onSubmit = handleSubmit((input) => onApply(input));

  const select = (field: 'type' | 'status', options: ReactNode) => (
    <Field.Root invalid={!!message(field)}>
      <Field.Label>{FIELD_LABELS[field]()}</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field {...register(field)}>{options}</NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <Field.ErrorText>{message(field)}</Field.ErrorText>
    </Field.Root>
  );

  const day = (field: 'from' | 'to') => (
    <Field.Root invalid={!!message(field)}>
      <Field.Label>{FIELD_LABELS[field]()}</Field.Label>
      <DateTextInput size="sm" placeholder={m['transactions.all.filters.datePlaceholder']()} {...register(field)} />
      <Field.ErrorText>{message(field)}</Field.ErrorText>
    </Field.Root>
  );

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      onKeyDown={enterToNextField}
      noValidate
      aria-label={m['transactions.all.filters.label']()}
    >
      <Grid columns={{ base: 2, lg: 4 }} gap="3" alignItems="start">
        {select(
          'type',
          <>
            <option value="">{m['transactions.all.filters.anyType']()}</option>
            {FILTER_TYPES.map((type) => (
              <option key={type} value={type}>
                {TYPE_LABELS[type]()}
              </option>
            ))}
          </>,
        )}
        {select(
          'status',
          <>
            <option value="">{m['transactions.all.filters.anyStatus']()}</option>
            {FILTER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_TEXT[status]()}
              </option>
            ))}
          </>,
        )}
        {day('from')}
        {day('to')}
      </Grid>
      <Flex mt="4" gap="3" wrap="wrap" align="center">
        <Button type="submit" size="sm">
          <Filter size={16} aria-hidden />
          {m['transactions.all.filters.apply']()}
        </Button>
        {hasFilters(filters) && (
          <Button type="button" size="sm" variant="ghost" onClick={() => onApply(NO_FILTERS)}>
            <X size={16} aria-hidden />
            {m['transactions.all.filters.clear']()}
          </Button>
        )}
        {children}
      </Flex>
    </form>
  );
}
