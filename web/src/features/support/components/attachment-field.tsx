import { Paperclip } from 'lucide-react';
import { useRef, type ComponentProps, type Ref } from 'react';
import { Flex, styled } from 'styled-system/jsx';

import { Button, CloseButton } from '@/components/ui/button';
import { Field, useFieldContext } from '@/components/ui/field';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

import { ATTACHMENT_ACCEPT, fileSize } from '../utils/attachment';

type AttachmentFieldProps = {
  /** The picked image, null while there is none. */
  file: File | null;
  /** Called with the image picked, or null when the player takes it off. */
  onPick: (file: File | null) => void;
  error?: string;
  /** The button that picks an image: where a refusal of the image puts the focus. */
  ref?: Ref<HTMLButtonElement>;
};

/** The file input, for the browser's picker and the field's label, hints and state only. */
function FileInput(props: ComponentProps<typeof styled.input>) {
  const field = useFieldContext();
  return (
    <styled.input {...field?.getInputProps()} type="file" accept={ATTACHMENT_ACCEPT} srOnly tabIndex={-1} {...props} />
  );
}

/**
 * An optional image for a message: 'Chọn ảnh' opens the browser's picker (PNG, JPEG or WebP),
 * then the file's name and size show with a button to take it off. The file input itself is
 * only for the picker and its label; the button is what the keyboard reaches.
 */
export function AttachmentField({ file, onPick, error, ref }: AttachmentFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <Field.Root invalid={!!error}>
      <Field.Label>
        {m['support.attachment.label']()}
        <Text as="span" color="fg.muted" fontWeight="normal">
          {m['support.optional']()}
        </Text>
      </Field.Label>
      <FileInput
        ref={input}
        onChange={(event) => {
          const picked = event.currentTarget.files?.[0] ?? null;
          // Picking the same file again after taking it off is a change too.
          event.currentTarget.value = '';
          if (picked) onPick(picked);
        }}
      />
      <Flex align="center" gap="2" wrap="wrap" maxW="full" minW="0">
        <Button ref={ref} type="button" variant="outline" size="sm" onClick={() => input.current?.click()}>
          <Paperclip size={16} aria-hidden />
          {m['support.attachment.choose']()}
        </Button>
        {file && (
          <Flex align="center" gap="1" minW="0" maxW="full" data-testid="attachment-file">
            <Text fontSize="sm" truncate>
              {file.name}
            </Text>
            <Text as="span" fontSize="sm" color="fg.muted" flexShrink={0}>
              {fileSize(file.size)}
            </Text>
            <CloseButton
              type="button"
              size="xs"
              aria-label={m['support.attachment.remove']()}
              title={m['support.attachment.remove']()}
              onClick={() => onPick(null)}
            />
          </Flex>
        )}
      </Flex>
      {error ? (
        <Field.ErrorText>{error}</Field.ErrorText>
      ) : (
        <Field.HelperText>{m['support.attachment.help']()}</Field.HelperText>
      )}
    </Field.Root>
  );
}
