import { api } from '@/lib/api-client';

/** Sets the XSRF-TOKEN cookie that every state-changing auth call must echo. */
export async function getCsrfCookie(): Promise<void> {
  await api.GET('/auth/csrf-cookie');
}
