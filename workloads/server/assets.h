/* assets.h: the viewer page and script, built into the binary. */
#ifndef PK_ASSETS_H
#define PK_ASSETS_H

#include <stddef.h>

/*
 * Generated at build time from workloads/browser/ by embed.sh; each array
 * holds its file's bytes and a NUL that _len does not count.
 */
extern const unsigned char pk_asset_viewer_html[];
extern const size_t pk_asset_viewer_html_len;
extern const unsigned char pk_asset_viewer_js[];
extern const size_t pk_asset_viewer_js_len;

#endif /* PK_ASSETS_H */
