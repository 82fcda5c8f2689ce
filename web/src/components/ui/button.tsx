import { ark } from '@ark-ui/react/factory';
import type { ComponentProps, ReactNode } from 'react';
import { Box, styled } from 'styled-system/jsx';
import { button } from 'styled-system/recipes';

import { CloseIcon } from './icons';
import { Spinner } from './spinner';

const StyledButton = styled(ark.button, button);

export type ButtonProps = ComponentProps<typeof StyledButton> & {
  /** Shows a spinner (beside `loadingText`, or over the label keeping its width) and disables the button. */
  loading?: boolean;
  loadingText?: ReactNode;
};

/**
 * Chakra's button: the button recipe's `variant`, `size` and the colour palette, `type="button"`
 * unless told otherwise, and the loading state.
 */
export function Button({ loading = false, loadingText, disabled, children, ...props }: ButtonProps) {
  const spinner = <Spinner size="inherit" borderWidth="0.125em" color="inherit" />;
  let content = children;
  if (loading && !props.asChild) {
    content = loadingText ? (
      <>
        {spinner}
        {loadingText}
      </>
    ) : (
      <>
        <Box as="span" position="absolute" top="50%" left="50%" translate="-50% -50%" display="inline-flex">
          {spinner}
        </Box>
        <Box as="span" visibility="hidden" display="contents">
          {children}
        </Box>
      </>
    );
  }
  return (
    <StyledButton
      type="button"
      {...props}
      data-loading={loading ? '' : undefined}
      disabled={loading || disabled}
    >
      {content}
    </StyledButton>
  );
}

export type IconButtonProps = ButtonProps & { 'aria-label': string };

/** A square button holding one icon; it must say what it does in `aria-label`. */
export function IconButton(props: IconButtonProps) {
  return <Button px="0" py="0" _icon={{ fontSize: '1.2em' }} {...props} />;
}

/** The ✕ that closes a dialog or a banner. */
export function CloseButton({ children, ...props }: Omit<IconButtonProps, 'aria-label'> & { 'aria-label'?: string }) {
  return (
    <IconButton variant="ghost" aria-label="Close" {...props}>
      {children ?? <CloseIcon />}
    </IconButton>
  );
}
