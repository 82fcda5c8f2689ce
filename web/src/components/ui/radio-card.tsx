import { RadioGroup as ArkRadioGroup, useRadioGroupItemContext } from '@ark-ui/react/radio-group';
import type { ComponentProps } from 'react';
import { createStyleContext, styled } from 'styled-system/jsx';
import { radioCard } from 'styled-system/recipes';

const { withProvider, withContext } = createStyleContext(radioCard);

const StyledControl = withContext(styled('div'), 'itemControl');

/** The card's face: it carries the item's state as data attributes, which the recipe styles. */
function ItemControl(props: ComponentProps<typeof StyledControl>) {
  const item = useRadioGroupItemContext();
  const flag = (on: boolean) => (on ? '' : undefined);
  return (
    <StyledControl
      data-focus={flag(item.focused)}
      data-disabled={flag(item.disabled)}
      data-state={item.checked ? 'checked' : 'unchecked'}
      data-hover={flag(item.hovered)}
      data-active={flag(item.active)}
      data-invalid={flag(item.invalid)}
      {...props}
    />
  );
}

/** A choice shown as cards (Chakra's radio card recipe on Ark's RadioGroup). */
export const RadioCard = {
  Root: withProvider(ArkRadioGroup.Root, 'root'),
  Label: withContext(ArkRadioGroup.Label, 'label'),
  Item: withContext(ArkRadioGroup.Item, 'item'),
  ItemHiddenInput: ArkRadioGroup.ItemHiddenInput,
  ItemControl,
  ItemContent: withContext(styled('div'), 'itemContent'),
  ItemText: withContext(ArkRadioGroup.ItemText, 'itemText'),
  ItemDescription: withContext(styled('div'), 'itemDescription'),
};
