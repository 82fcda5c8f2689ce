import type { ComponentProps } from 'react';

import { useFieldContext } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

/**
 * A message's text, inside its `Field.Root`: several lines, taller as the player needs. Chakra's
 * input styles on a textarea, with the field's label, hints and state (the app has no textarea
 * recipe of its own, which every page would load).
 */
export function MessageBodyInput({ rows = 6, ...props }: ComponentProps<'textarea'>) {
  const field = useFieldContext();
  return (
    <Input asChild h="auto" minH="24" py="2" lineHeight="tall" resize="vertical">
      <textarea rows={rows} {...field?.getTextareaProps()} {...props} />
    </Input>
  );
}
