//! JSON logs, optional OTLP trace export, and W3C trace context across gRPC and RabbitMQ.

use std::collections::HashMap;

use opentelemetry::{
    global,
    propagation::{Extractor, Injector},
    trace::TracerProvider as _,
};
use opentelemetry_sdk::{Resource, propagation::TraceContextPropagator, trace::SdkTracerProvider};
use tonic::metadata::{MetadataKey, MetadataMap, MetadataValue};
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::{EnvFilter, layer::SubscriberExt, util::SubscriberInitExt};

/// Flushes and stops the trace exporter when dropped.
pub struct TelemetryGuard {
    provider: Option<SdkTracerProvider>,
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        if let Some(provider) = self.provider.take()
            && let Err(error) = provider.shutdown()
        {
            eprintln!("trace exporter did not shut down cleanly: {error}");
        }
    }
}

/// Installs the global subscriber: JSON lines on stdout filtered by `RUST_LOG` (default
/// `info`), and OTLP export when `OTEL_EXPORTER_OTLP_ENDPOINT` is set. Installing twice (as
/// tests do) keeps the first subscriber.
pub fn init(service_name: &str) -> anyhow::Result<TelemetryGuard> {
    global::set_text_map_propagator(TraceContextPropagator::new());
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let fmt = tracing_subscriber::fmt::layer()
        .json()
        .flatten_event(true)
        .with_current_span(false)
        .with_span_list(false);

    let provider = match std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT") {
        Ok(endpoint) if !endpoint.is_empty() => {
            let exporter = opentelemetry_otlp::SpanExporter::builder().with_tonic().build()?;
            Some(
                SdkTracerProvider::builder()
                    .with_batch_exporter(exporter)
                    .with_resource(
                        Resource::builder()
                            .with_service_name(service_name.to_owned())
                            .build(),
                    )
                    .build(),
            )
        }
        _ => None,
    };
    let otel = provider
        .as_ref()
        .map(|provider| tracing_opentelemetry::layer().with_tracer(provider.tracer(service_name.to_owned())));
    if let Some(provider) = &provider {
        global::set_tracer_provider(provider.clone());
    }
    let _already_installed = tracing_subscriber::registry()
        .with(filter)
        .with(fmt)
        .with(otel)
        .try_init();
    Ok(TelemetryGuard { provider })
}

struct MetadataInjector<'a>(&'a mut MetadataMap);

impl Injector for MetadataInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(key), Ok(value)) = (
            MetadataKey::from_bytes(key.as_bytes()),
            MetadataValue::try_from(value),
        ) {
            self.0.insert(key, value);
        }
    }
}

/// Writes the current span's trace context into outgoing gRPC metadata.
pub fn inject_into_metadata(metadata: &mut MetadataMap) {
    let context = Span::current().context();
    global::get_text_map_propagator(|propagator| {
        propagator.inject_context(&context, &mut MetadataInjector(metadata));
    });
}

/// Makes `span` a child of the trace context carried by incoming HTTP or gRPC headers.
pub fn adopt_parent_from_headers(span: &Span, headers: &http::HeaderMap) {
    let parent = global::get_text_map_propagator(|propagator| {
        propagator.extract(&opentelemetry_http::HeaderExtractor(headers))
    });
    let _ = span.set_parent(parent);
}

/// The current trace context as plain string headers, stored with an outbox event.
pub fn current_context_headers() -> HashMap<String, String> {
    let context = Span::current().context();
    let mut headers = HashMap::new();
    global::get_text_map_propagator(|propagator| propagator.inject_context(&context, &mut headers));
    headers
}

struct MapExtractor<'a>(&'a HashMap<String, String>);

impl Extractor for MapExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }
}

/// Makes `span` a child of the trace context a message carried in its headers.
pub fn adopt_parent_from_map(span: &Span, headers: &HashMap<String, String>) {
    let parent = global::get_text_map_propagator(|propagator| propagator.extract(&MapExtractor(headers)));
    let _ = span.set_parent(parent);
}
