import { createStyleContext, styled } from 'styled-system/jsx';
import { list } from 'styled-system/recipes';

const { withProvider, withContext } = createStyleContext(list);

/** A bulleted (or, `as="ol"`, numbered) list (Chakra's list recipe). */
export const List = {
  Root: withProvider(styled('ul'), 'root', { defaultProps: { role: 'list' } }),
  Item: withContext(styled('li'), 'item'),
  Indicator: withContext(styled('span'), 'indicator'),
};
