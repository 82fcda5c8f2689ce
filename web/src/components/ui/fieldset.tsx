import { Fieldset as ArkFieldset } from '@ark-ui/react/fieldset';
import { createStyleContext, styled } from 'styled-system/jsx';
import { fieldset } from 'styled-system/recipes';

const { withProvider, withContext } = createStyleContext(fieldset);

/** A group of fields with a legend and a shared help or error text (Chakra's fieldset recipe). */
export const Fieldset = {
  Root: withProvider(ArkFieldset.Root, 'root'),
  Legend: withContext(ArkFieldset.Legend, 'legend'),
  HelperText: withContext(ArkFieldset.HelperText, 'helperText'),
  ErrorText: withContext(ArkFieldset.ErrorText, 'errorText'),
  Content: withContext(styled('div'), 'content'),
};
