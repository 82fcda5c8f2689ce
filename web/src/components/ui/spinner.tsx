import { styled } from 'styled-system/jsx';
import { spinner } from 'styled-system/recipes';

/** The loading ring (Chakra's spinner recipe); give it a label where it stands alone. */
export const Spinner = styled('span', spinner);
