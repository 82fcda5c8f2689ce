import { Field as ArkField, useFieldContext } from '@ark-ui/react/field';
import { createStyleContext, styled } from 'styled-system/jsx';
import { field } from 'styled-system/recipes';
import type { ComponentProps, ReactNode } from 'react';

const { withProvider, withContext } = createStyleContext(field);

const RequiredMark = styled('span');

/** The `*` after a required field's label (shown only when the field is required). */
function RequiredIndicator({ children = '*', fallback, ...props }: ComponentProps<typeof RequiredMark> & { fallback?: ReactNode }) {
  const context = useFieldContext();
  if (!context?.required) return fallback ?? null;
  return (
    <RequiredMark aria-hidden="true" {...props}>
      {children}
    </RequiredMark>
  );
}

/**
 * A form field (Chakra's field recipe on Ark's Field): the label, the input and the help and
 * error texts are tied together by ids and `aria-` attributes; the error text shows only when
 * the root is `invalid`.
 */
export const Field = {
  Root: withProvider(ArkField.Root, 'root'),
  Label: withContext(ArkField.Label, 'label'),
  HelperText: withContext(ArkField.HelperText, 'helperText'),
  ErrorText: withContext(ArkField.ErrorText, 'errorText'),
  RequiredIndicator: withContext(RequiredIndicator, 'requiredIndicator'),
};

export { useFieldContext };
