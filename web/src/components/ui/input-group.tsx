import type { ReactNode } from 'react';
import { Box, Flex, type BoxProps } from 'styled-system/jsx';

type InputGroupProps = BoxProps & {
  /** Drawn over the input's end (a show-password toggle, a unit); the input leaves room for it. */
  endElement?: ReactNode;
  children: ReactNode;
};

/** An input with an element at its end, as Chakra's InputGroup. */
export function InputGroup({ endElement, children, ...props }: InputGroupProps) {
  return (
    <Box
      position="relative"
      width="full"
      data-end-element={endElement ? '' : undefined}
      css={{ '&[data-end-element] > input': { paddingInlineEnd: 'calc(var(--input-height) - 6px)' } }}
      {...props}
    >
      {children}
      {endElement && (
        <Flex
          position="absolute"
          insetEnd="0"
          top="0"
          height="full"
          alignItems="center"
          justifyContent="center"
          px="3"
          zIndex="2"
        >
          {endElement}
        </Flex>
      )}
    </Box>
  );
}
