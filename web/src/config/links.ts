import { env } from './env';

/** Pages on the provider's main game site that the portal links to. */
export const externalLinks = {
  news: `${env.GAME_SITE_URL}/tin-tuc`,
  support: `${env.GAME_SITE_URL}/ho-tro`,
  download: `${env.GAME_SITE_URL}/tai-game`,
  messenger: env.MESSENGER_URL,
} as const;
