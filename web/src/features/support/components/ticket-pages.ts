/**
 * What /support loads for a signed-in player, in one chunk: its list of the files to load with
 * it (Vite's preload list) then sits once in the support page's code, which every visitor of
 * /support loads, rather than once per page.
 */
export { TicketCentre } from './ticket-centre';
export { TicketScreen } from './ticket-screen';
