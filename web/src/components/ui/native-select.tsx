import { Field as ArkField, useFieldContext } from '@ark-ui/react/field';
import { ChevronDown } from 'lucide-react';
import type { ComponentProps } from 'react';
import { createStyleContext, styled } from 'styled-system/jsx';
import { nativeSelect } from 'styled-system/recipes';

const { withProvider, withContext } = createStyleContext(nativeSelect);

const StyledField = withContext(ArkField.Select, 'field');
const StyledIndicator = withContext(styled('div'), 'indicator');

/** The `<select>`: inside a `Field.Root` it takes the field's id, invalid and disabled state. */
function Field({ placeholder, children, ...props }: ComponentProps<typeof StyledField> & { placeholder?: string }) {
  const field = useFieldContext();
  return (
    <StyledField data-invalid={field?.invalid ? '' : undefined} {...props}>
      {placeholder && <option value="">{placeholder}</option>}
      {children}
    </StyledField>
  );
}

/** The chevron over the select's end. */
function Indicator({ children, ...props }: ComponentProps<typeof StyledIndicator>) {
  const field = useFieldContext();
  return (
    <StyledIndicator
      data-disabled={field?.disabled ? '' : undefined}
      data-invalid={field?.invalid ? '' : undefined}
      {...props}
    >
      {children ?? <ChevronDown />}
    </StyledIndicator>
  );
}

/** The browser's own select, drawn as Chakra's native select recipe: Root, Field, Indicator. */
export const NativeSelect = {
  Root: withProvider(styled('div'), 'root'),
  Field,
  Indicator,
};
