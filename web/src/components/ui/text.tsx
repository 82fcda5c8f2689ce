import { styled } from 'styled-system/jsx';
import { code, heading } from 'styled-system/recipes';

/** Body text: a paragraph unless `as` says otherwise (Chakra's `Text`). */
export const Text = styled('p');

/** A heading, h2 unless `as` says otherwise; `size` from Chakra's heading recipe (default xl). */
export const Heading = styled('h2', heading);

/** Inline code: a reference, an order id. */
export const Code = styled('code', code);
