import type { ComponentProps } from 'react';
import { styled } from 'styled-system/jsx';
import { separator } from 'styled-system/recipes';

const StyledSeparator = styled('span', separator);

/** A rule between blocks; `orientation="vertical"` between inline items. */
export function Separator(props: ComponentProps<typeof StyledSeparator>) {
  return <StyledSeparator role="separator" aria-orientation={typeof props.orientation === 'string' ? props.orientation : 'horizontal'} {...props} />;
}
