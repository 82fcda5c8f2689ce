import { css } from 'styled-system/css';

/**
 * The red border (and focus ring) of an input or select whose field is invalid, as Chakra drew
 * it. Panda puts a recipe's base styles, where Chakra's input and native-select recipes keep
 * `_invalid`, in a `_base` sub-layer that the variants' own border colour always beats; and
 * Panda's `_invalid` also matches the browser's `:invalid` (an empty required input), which
 * Chakra's does not, hence Chakra's selector here. Give it as `className` to each input or
 * select of a field that can be invalid; not needed once the kit draws this itself.
 */
export const invalidField = css({
  '&:is([data-invalid], [aria-invalid=true], [data-state=invalid])': {
    borderColor: 'var(--error-color)',
    '--focus-ring-color': 'var(--error-color)',
  },
});
