import { Checkbox as ArkCheckbox, useCheckboxContext } from '@ark-ui/react/checkbox';
import type { ComponentProps } from 'react';
import { createStyleContext, styled } from 'styled-system/jsx';
import { checkbox } from 'styled-system/recipes';

const { withProvider, withContext } = createStyleContext(checkbox);

const StyledIndicator = withContext(styled('svg'), 'indicator');

/** The tick (or the dash when indeterminate) inside the box. */
function Indicator(props: ComponentProps<typeof StyledIndicator>) {
  const { checked, indeterminate, disabled } = useCheckboxContext();
  const state = indeterminate ? 'indeterminate' : checked ? 'checked' : 'unchecked';
  return (
    <StyledIndicator
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="3px"
      strokeLinecap="round"
      strokeLinejoin="round"
      data-state={state}
      data-disabled={disabled ? '' : undefined}
      {...props}
    >
      {indeterminate ? <path d="M5 12h14" /> : checked ? <polyline points="20 6 9 17 4 12" /> : null}
    </StyledIndicator>
  );
}

const StyledControl = withContext(ArkCheckbox.Control, 'control');

function Control({ children, ...props }: ComponentProps<typeof StyledControl>) {
  return <StyledControl {...props}>{children ?? <Indicator />}</StyledControl>;
}

/** Chakra's checkbox on Ark's: Root, HiddenInput, Control (with its tick) and Label. */
export const Checkbox = {
  Root: withProvider(ArkCheckbox.Root, 'root'),
  HiddenInput: ArkCheckbox.HiddenInput,
  Control,
  Indicator,
  Label: withContext(ArkCheckbox.Label, 'label'),
};
