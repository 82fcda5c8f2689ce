import type { Ref } from 'react';

import { NativeSelect } from '@/components/ui/native-select';
import type { Zone } from '@/types/api-schema';

type ZoneSelectProps = {
  ref?: Ref<HTMLSelectElement>;
  name: string;
  /** The chosen zone's id; 0 when none is. */
  value: number;
  /** Called with the chosen zone's id. */
  onChange: (zoneId: number) => void;
  onBlur?: () => void;
  /** The game's zones; none (yet) leaves only the placeholder. */
  zones: readonly Zone[] | undefined;
  /** The first, unselectable option, shown while no zone is chosen. */
  placeholder: string;
};

/**
 * A picker of a game's zones (servers), as the coin top-up form and a code of in-game items use
 * it; the label, errors and hints are the enclosing `Field.Root`'s.
 */
export function ZoneSelect({ ref, name, value, onChange, onBlur, zones, placeholder }: ZoneSelectProps) {
  return (
    <NativeSelect.Root>
      <NativeSelect.Field
        ref={ref}
        name={name}
        value={value > 0 ? String(value) : ''}
        onChange={(event) => onChange(Number(event.currentTarget.value) || 0)}
        onBlur={onBlur}
      >
        <option value="" disabled>
          {placeholder}
        </option>
        {zones?.map((zone) => (
          <option key={zone.id} value={String(zone.id)}>
            {zone.description}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
