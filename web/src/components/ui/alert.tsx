import { createContext, useContext, type ComponentProps } from 'react';
import { createStyleContext, styled } from 'styled-system/jsx';
import { alert } from 'styled-system/recipes';

import { CheckCircleIcon, InfoIcon, WarningIcon } from './icons';

const { withProvider, withContext } = createStyleContext(alert);

type Status = 'info' | 'warning' | 'success' | 'error' | 'neutral';
const StatusContext = createContext<Status>('info');

const StyledRoot = withProvider(styled('div'), 'root');

function Root({ status = 'info', ...props }: ComponentProps<typeof StyledRoot>) {
  const current = (status ?? 'info') as Status;
  return (
    <StatusContext.Provider value={current}>
      <StyledRoot status={status} {...props} />
    </StatusContext.Provider>
  );
}

const ICONS = { info: InfoIcon, neutral: InfoIcon, warning: WarningIcon, success: CheckCircleIcon, error: WarningIcon };

const StyledIndicator = withContext(styled('span'), 'indicator');

/** The status's icon, unless children give another. */
function Indicator({ children, ...props }: ComponentProps<typeof StyledIndicator>) {
  const Icon = ICONS[useContext(StatusContext)];
  return <StyledIndicator {...props}>{children ?? <Icon />}</StyledIndicator>;
}

/** A banner (Chakra's alert recipe): `status` picks the colours and the icon. */
export const Alert = {
  Root,
  Indicator,
  Content: withContext(styled('div'), 'content'),
  Title: withContext(styled('div'), 'title'),
  Description: withContext(styled('div'), 'description'),
};
