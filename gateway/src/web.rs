//! The built SPA: files from `web/dist`, and `index.html` (status 200) for every other path so
//! the client-side router can take over (history fallback).

use std::path::Path;

use tower_http::services::{ServeDir, ServeFile};

pub fn spa(dist: &Path) -> ServeDir<ServeFile> {
    ServeDir::new(dist).fallback(ServeFile::new(dist.join("index.html")))
}
