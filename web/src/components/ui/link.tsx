import { ark } from '@ark-ui/react/factory';
import { styled } from 'styled-system/jsx';
import { link } from 'styled-system/recipes';

/**
 * A styled anchor (Chakra's link recipe). With `asChild` it styles its only child instead, a
 * router `<Link>` say, which keeps client-side navigation.
 */
export const Link = styled(ark.a, link);
