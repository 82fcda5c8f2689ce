import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Box, Container } from 'styled-system/jsx';

import { Code, Heading, Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

function describe(error: unknown): { summary: string; stack?: string } {
  if (isRouteErrorResponse(error)) {
    return { summary: `${error.status} ${error.statusText}`.trim() };
  }
  if (error instanceof Error) {
    return { summary: error.message, stack: error.stack };
  }
  return { summary: String(error) };
}

/** The router's fallback for an error thrown while rendering or loading a route. */
export function RouteError() {
  const { summary, stack } = describe(useRouteError());
  return (
    <Container maxW="3xl" py="16" role="alert">
      <Heading size="2xl" mb="4">
        {m['errors.routeTitle']()}
      </Heading>
      <Text as="h3" fontStyle="italic" color="fg.muted" mb="6">
        {summary}
      </Text>
      {stack && (
        <Box as="pre" overflowX="auto" p="4" bg="bg.subtle" borderRadius="md" fontSize="sm">
          <Code variant="plain" whiteSpace="pre" bg="transparent">
            {stack}
          </Code>
        </Box>
      )}
    </Container>
  );
}
