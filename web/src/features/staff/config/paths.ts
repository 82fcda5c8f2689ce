/** The staff console's pages: a separate area of the site with its own sign-in. */
export const staffPaths = {
  home: '/staff',
  signIn: '/staff/login',
  members: '/staff/staff',
  audit: '/staff/audit',
} as const;
