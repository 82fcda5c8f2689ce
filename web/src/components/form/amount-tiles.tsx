import type { ReactNode } from 'react';
import { Grid } from 'styled-system/jsx';

import { RadioCard } from '@/components/ui/radio-card';

type AmountTilesProps = {
  name: string;
  /** The chosen amount; 0 when none is. */
  value: number;
  onChange: (value: number) => void;
  label: ReactNode;
  /** The tiles: `RadioCard.Item`s whose values are the amounts. */
  children: ReactNode;
};

/** A choice of amounts shown as tiles (card face values, coin amounts), two to a row on a phone. */
export function AmountTiles({ name, value, onChange, label, children }: AmountTilesProps) {
  return (
    <RadioCard.Root
      name={name}
      value={value > 0 ? String(value) : null}
      onValueChange={({ value: chosen }) => onChange(chosen ? Number(chosen) : 0)}
      size="sm"
      variant="surface"
      colorPalette="brand"
    >
      <RadioCard.Label fontWeight="semibold" fontSize="md" mb="2">
        {label}
      </RadioCard.Label>
      <Grid columns={{ base: 2, sm: 3, lg: 4 }} gap="2">
        {children}
      </Grid>
    </RadioCard.Root>
  );
}
