import { Box, type BoxProps } from 'styled-system/jsx';

/** A panel on the page background: the surface that screens put their content on. */
export function ContentCard(props: BoxProps) {
  return (
    <Box
      bg="bg.panel"
      borderWidth="1px"
      borderColor="border"
      borderRadius="xl"
      p={{ base: '5', md: '8' }}
      shadow="sm"
      {...props}
    />
  );
}
