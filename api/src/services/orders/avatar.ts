// Standoff order avatars: at most 2 MB (the upload itself: services/uploads/).
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024
