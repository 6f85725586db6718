"""quotelocate workbench (Streamlit). Run with `make run`."""
import streamlit as st

st.title("quotelocate")
st.write("The workbench is being built; use the `quotelocate` command line for now.")
