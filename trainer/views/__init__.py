"""Views: card art, the drawn table and charts, as HTML and Altair (no Streamlit)."""
