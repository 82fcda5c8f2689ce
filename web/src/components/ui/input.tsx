import { Field as ArkField } from '@ark-ui/react/field';
import type { ComponentProps } from 'react';
import { styled } from 'styled-system/jsx';
import { input } from 'styled-system/recipes';

/**
 * A text input (Chakra's input recipe). Inside a `Field.Root` it takes the field's id, its
 * invalid and required state and the ids of its help and error texts, as Chakra's did.
 */
export const Input = styled(ArkField.Input, input);
export type InputProps = ComponentProps<typeof Input>;
