import { createStyleContext, styled } from 'styled-system/jsx';
import { table } from 'styled-system/recipes';

const { withProvider, withContext } = createStyleContext(table);

/** A data table (Chakra's table recipe); `ScrollArea` lets a wide one scroll on a phone. */
export const Table = {
  Root: withProvider(styled('table'), 'root'),
  ScrollArea: styled('div', {
    base: { display: 'block', whiteSpace: 'nowrap', WebkitOverflowScrolling: 'touch', overflow: 'auto', maxWidth: '100%' },
  }),
  Header: withContext(styled('thead'), 'header'),
  Body: withContext(styled('tbody'), 'body'),
  Footer: withContext(styled('tfoot'), 'footer'),
  Row: withContext(styled('tr'), 'row'),
  ColumnHeader: withContext(styled('th'), 'columnHeader'),
  Cell: withContext(styled('td'), 'cell'),
  Caption: withContext(styled('caption'), 'caption', { defaultProps: { captionSide: 'bottom' } }),
};
