//! The built SPA. Hashed assets under `/assets` are served precompressed (Vite writes `.br` and
//! `.gz` beside each; the smallest the browser accepts is sent) and kept for a year: a new build
//! has new names. The public pages the build prerendered (`pages/login/index.html` for `/login`, with
//! the form already in its HTML) are served for their paths; every other path gets its file, or
//! `index.html` (status 200) for the client's router (history fallback). Pages are revalidated
//! on every load so a release shows at once.

use std::path::Path;

use axum::{
    Router,
    extract::Request,
    http::{HeaderValue, StatusCode, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
};
use tower_http::services::{ServeDir, ServeFile};

/// A hashed asset's name changes with its content: it never needs asking again.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `index.html` and the unhashed files (the locale file), and any miss: asked again each time.
const REVALIDATE: &str = "no-cache";
/// Where in the build the prerendered pages are: `pages/login/index.html` for `/login`
/// (web/scripts/prerender.mjs).
const PRERENDERED: &str = "pages";

pub fn spa(dist: &Path) -> Router {
    let assets = ServeDir::new(dist.join("assets"))
        .precompressed_br()
        .precompressed_gzip();
    let files = ServeDir::new(dist).fallback(ServeFile::new(dist.join("index.html")));
    let pages = ServeDir::new(dist.join(PRERENDERED))
        .redirect_to_trailing_slash(false)
        .fallback(files);
    Router::new()
        .nest_service("/assets", assets)
        .fallback_service(pages)
        .layer(middleware::from_fn(cache_control))
}

async fn cache_control(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let hashed = path.starts_with("/assets/");
    // Build bookkeeping (`.vite/manifest.json`, which names source files) and any other hidden
    // file in the build stays private.
    let mut response = if path.split('/').any(|segment| segment.starts_with('.')) {
        StatusCode::NOT_FOUND.into_response()
    } else {
        next.run(request).await
    };
    let kept = hashed && response.status().is_success();
    let headers = response.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(if kept { IMMUTABLE } else { REVALIDATE }),
    );
    if hashed {
        // One URL, a body per encoding: caches must keep them apart.
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    response
}
