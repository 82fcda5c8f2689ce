import { Controller, type Control } from 'react-hook-form';
import { HStack } from 'styled-system/jsx';

import { ZoneSelect } from '@/components/form/zone-select';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { useCoinRechargeInfo } from '@/lib/coin-recharge-info';
import { m } from '@/paraglide/messages';

import type { GiftcodeInput } from '../api/redeem-giftcode';

type GiftZoneFieldProps = {
  /** The game the code's items are for, as the server named it. */
  productCode: string;
  control: Control<GiftcodeInput>;
  error: string | undefined;
};

/**
 * The zone a code of in-game items goes to, shown once the server asked for one: the game's
 * zones, from the same call as its coin top-up page, in the same picker. Below it the server's
 * refusal of the zone (none chosen, unknown, no character there), then which game it is for.
 */
export function GiftZoneField({ productCode, control, error }: GiftZoneFieldProps) {
  const info = useCoinRechargeInfo(productCode);

  return (
    <Controller
      control={control}
      name="zoneId"
      render={({ field }) => (
        <Field.Root required invalid={!!error} maxW={{ md: 'sm' }}>
          <Field.Label fontWeight="semibold" fontSize="md">
            {m['giftcode.zone.label']()}
          </Field.Label>
          {/* Not disabled while the zones load: it takes the focus as soon as it appears. */}
          <ZoneSelect
            ref={field.ref}
            name={field.name}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            zones={info.data?.zones}
            placeholder={m['giftcode.zone.placeholder']()}
          />
          <Field.ErrorText>{error}</Field.ErrorText>
          <Field.HelperText aria-live="polite" mt="1.5">
            {info.data && m['giftcode.zone.hint']({ game: info.data.name })}
            {info.isPending && m['giftcode.zone.loading']()}
            {info.isError && (
              <HStack as="span" gap="2" flexWrap="wrap" color="fg.error">
                {m['giftcode.zone.loadFailed']()}
                <Button variant="outline" size="xs" loading={info.isFetching} onClick={() => void info.refetch()}>
                  {m['errors.retry']()}
                </Button>
              </HStack>
            )}
          </Field.HelperText>
        </Field.Root>
      )}
    />
  );
}
