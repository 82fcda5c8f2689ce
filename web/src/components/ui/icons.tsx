import type { SVGProps } from 'react';

/*
 * Chakra's own icons (@chakra-ui/react 3.37.0, dist/esm/components/icons.js), so alerts, toasts
 * and close buttons show what they showed.
 */

type IconProps = SVGProps<SVGSVGElement>;

const RING =
  'M12 22C6.47715 22 2 17.5228 2 12C2 6.47715 6.47715 2 12 2C17.5228 2 22 6.47715 22 12C22 17.5228 17.5228 22 12 22ZM12 20C16.4183 20 20 16.4183 20 12C20 7.58172 16.4183 4 12 4C7.58172 4 4 7.58172 4 12C4 16.4183 7.58172 20 12 20Z';

function StatusIcon({ mark, ...props }: IconProps & { mark: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="currentColor" stroke="currentColor" strokeWidth="0" aria-hidden {...props}>
      <path d={`${RING}${mark}`} />
    </svg>
  );
}

export const CheckCircleIcon = (props: IconProps) => (
  <StatusIcon mark="M11.0026 16L6.75999 11.7574L8.17421 10.3431L11.0026 13.1716L16.6595 7.51472L18.0737 8.92893L11.0026 16Z" {...props} />
);

export const WarningIcon = (props: IconProps) => (
  <StatusIcon mark="M11 15H13V17H11V15ZM11 7H13V13H11V7Z" {...props} />
);

export const InfoIcon = (props: IconProps) => <StatusIcon mark="M11 7H13V9H11V7ZM11 11H13V17H11V11Z" {...props} />;

export const CloseIcon = (props: IconProps) => (
  <svg viewBox="0 0 24 24" fill="currentColor" aria-hidden {...props}>
    <path d="M18.7071 6.70711C19.0976 6.31658 19.0976 5.68342 18.7071 5.29289C18.3166 4.90237 17.6834 4.90237 17.2929 5.29289L12 10.5858L6.70711 5.29289C6.31658 4.90237 5.68342 4.90237 5.29289 5.29289C4.90237 5.68342 4.90237 6.31658 5.29289 6.70711L10.5858 12L5.29289 17.2929C4.90237 17.6834 4.90237 18.3166 5.29289 18.7071C5.68342 19.0976 6.31658 19.0976 6.70711 18.7071L12 13.4142L17.2929 18.7071C17.6834 19.0976 18.3166 19.0976 18.7071 18.7071C19.0976 18.3166 19.0976 17.6834 18.7071 17.2929L13.4142 12L18.7071 6.70711Z" />
  </svg>
);
